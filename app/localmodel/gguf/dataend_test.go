package gguf_test

import (
	"bytes"
	"testing"

	"github.com/switchboard-app/switchboard/app/localmodel/gguf"
	"github.com/switchboard-app/switchboard/app/localmodel/testmodel"
)

// DataEnd is where the file's last tensor ends: the size of a whole file
// as testmodel lays it out (each tensor padded to the alignment), so a
// shorter file is one cut short.
func TestDataEndIsTheEndOfTheLastTensor(t *testing.T) {
	tests := []struct {
		name    string
		align   uint32
		tensors []gguf.Tensor
	}{
		{"f32 and q8_0", 0, []gguf.Tensor{
			{Name: "a", Dims: []uint64{8, 3}, Type: gguf.F32, Data: make([]byte, 8*3*4)},
			{Name: "b", Dims: []uint64{64, 2}, Type: gguf.Q8_0, Data: make([]byte, 2*2*34)},
		}},
		{"q4_0 at a 64-byte alignment", 64, []gguf.Tensor{
			{Name: "a", Dims: []uint64{32}, Type: gguf.Q4_0, Data: make([]byte, 18)},
			{Name: "b", Dims: []uint64{4, 4}, Type: gguf.F16, Data: make([]byte, 4*4*2)},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &gguf.File{Tensors: tt.tensors}
			f.Set("general.architecture", gguf.TypeString, "test")
			if tt.align > 0 {
				f.Set("general.alignment", gguf.TypeUint32, tt.align)
			}
			var b bytes.Buffer
			if err := testmodel.Encode(&b, f); err != nil {
				t.Fatal(err)
			}
			got, err := gguf.Read(bytes.NewReader(b.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			last := tt.tensors[len(tt.tensors)-1]
			end, ok := got.DataEnd()
			// The last tensor is padded to the alignment after its data.
			want := int64(b.Len()) - (got.Alignment()-int64(len(last.Data))%got.Alignment())%got.Alignment()
			if !ok || end != want {
				t.Fatalf("DataEnd = %d, %v; want %d (file %d bytes, data at %d)", end, ok, want, b.Len(), got.DataOffset)
			}
			if got.DataOffset%got.Alignment() != 0 || got.DataOffset <= 24 {
				t.Fatalf("DataOffset %d is not aligned to %d", got.DataOffset, got.Alignment())
			}
		})
	}
}

func TestTensorBytes(t *testing.T) {
	for _, tt := range []struct {
		t    gguf.Tensor
		want int64
		ok   bool
	}{
		{gguf.Tensor{Dims: []uint64{2048, 151936}, Type: 12}, 2048 / 256 * 144 * 151936, true}, // Q4_K
		{gguf.Tensor{Dims: []uint64{1024}, Type: gguf.F32}, 4096, true},
		{gguf.Tensor{Dims: []uint64{30}, Type: gguf.Q8_0}, 0, false}, // not whole blocks
		{gguf.Tensor{Dims: []uint64{32}, Type: 4}, 0, false},         // a removed type
		{gguf.Tensor{Dims: []uint64{1 << 41}, Type: gguf.F32}, 0, false},
	} {
		if got, ok := tt.t.Bytes(); got != tt.want || ok != tt.ok {
			t.Errorf("%+v: Bytes = %d, %v; want %d, %v", tt.t, got, ok, tt.want, tt.ok)
		}
	}
}
