package testmodel

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/switchboard-app/switchboard/app/localmodel/gguf"
)

func TestEncodeReadRoundTrip(t *testing.T) {
	f := &gguf.File{}
	f.Set("general.architecture", gguf.TypeString, "qwen3")
	f.Set("general.alignment", gguf.TypeUint32, uint32(32))
	f.Set("qwen3.context_length", gguf.TypeUint32, uint32(40960))
	f.Set("qwen3.rope.freq_base", gguf.TypeFloat32, float32(1e6))
	f.Set("tokenizer.ggml.add_bos_token", gguf.TypeBool, false)
	f.Set("tokenizer.ggml.tokens", gguf.TypeArray, gguf.Array{Type: gguf.TypeString, Items: []any{"a", "<tool_call>", "日本"}})
	f.Set("tokenizer.ggml.token_type", gguf.TypeArray, gguf.Array{Type: gguf.TypeInt32, Items: []any{int32(1), int32(4), int32(1)}})
	f.Tensors = []gguf.Tensor{
		{Name: "output_norm.weight", Dims: []uint64{3}, Type: gguf.F32, Data: make([]byte, 12)},
		{Name: "token_embd.weight", Dims: []uint64{4, 3}, Type: gguf.F16, Data: make([]byte, 24)},
	}
	var buf bytes.Buffer
	if err := Encode(&buf, f); err != nil {
		t.Fatal(err)
	}
	got, err := gguf.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.KVs, f.KVs) {
		t.Fatalf("metadata\n%+v\nwant\n%+v", got.KVs, f.KVs)
	}
	if got.String("general.architecture") != "qwen3" || got.Uint("qwen3.context_length") != 40960 {
		t.Fatal("accessors")
	}
	// Offsets are aligned, the second tensor after the first one's padding.
	if len(got.Tensors) != 2 || got.Tensors[1].Offset != 32 || !reflect.DeepEqual(got.Tensors[1].Dims, []uint64{4, 3}) || got.Tensors[1].Type != gguf.F16 {
		t.Fatalf("tensors %+v", got.Tensors)
	}
	// The data starts aligned and the file ends with the last tensor's padded data.
	if buf.Len()%32 != 0 {
		t.Fatalf("file of %d bytes is not padded", buf.Len())
	}
}

func TestHalf(t *testing.T) {
	for x, want := range map[float32]uint16{0: 0, 1: 0x3c00, -2: 0xc000, 0.5: 0x3800, 65504: 0x7bff, 1e9: 0x7c00} {
		if got := Half(x); got != want {
			t.Errorf("Half(%v) = %#x, want %#x", x, got, want)
		}
	}
}
