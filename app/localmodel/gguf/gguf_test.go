package gguf

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"testing"
)

func TestWriteReadRoundTrip(t *testing.T) {
	f := &File{}
	f.Set("general.architecture", TypeString, "qwen3")
	f.Set("general.alignment", TypeUint32, uint32(32))
	f.Set("qwen3.context_length", TypeUint32, uint32(40960))
	f.Set("qwen3.rope.freq_base", TypeFloat32, float32(1e6))
	f.Set("tokenizer.ggml.add_bos_token", TypeBool, false)
	f.Set("tokenizer.ggml.tokens", TypeArray, Array{Type: TypeString, Items: []any{"a", "<tool_call>", "日本"}})
	f.Set("tokenizer.ggml.token_type", TypeArray, Array{Type: TypeInt32, Items: []any{int32(1), int32(4), int32(1)}})
	f.Tensors = []Tensor{
		{Name: "output_norm.weight", Dims: []uint64{3}, Type: F32, Data: make([]byte, 12)},
		{Name: "token_embd.weight", Dims: []uint64{4, 3}, Type: F16, Data: make([]byte, 24)},
	}
	var buf bytes.Buffer
	if err := Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	got, err := Read(bytes.NewReader(buf.Bytes()))
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
	if len(got.Tensors) != 2 || got.Tensors[1].Offset != 32 || !reflect.DeepEqual(got.Tensors[1].Dims, []uint64{4, 3}) || got.Tensors[1].Type != F16 {
		t.Fatalf("tensors %+v", got.Tensors)
	}
	// The data starts aligned and the file ends with the last tensor's padded data.
	if buf.Len()%32 != 0 {
		t.Fatalf("file of %d bytes is not padded", buf.Len())
	}
}

func TestReadRefusesBrokenFiles(t *testing.T) {
	head := func(magic, version uint32, nt, nkv uint64) []byte {
		var b bytes.Buffer
		for _, v := range []any{magic, version, nt, nkv} {
			_ = binary.Write(&b, binary.LittleEndian, v)
		}
		return b.Bytes()
	}
	for name, data := range map[string][]byte{
		"empty":             nil,
		"not GGUF":          head(0x12345678, 3, 0, 0),
		"version 1":         head(Magic, 1, 0, 0),
		"absurd counts":     head(Magic, 3, 1<<40, 0),
		"cut in the header": head(Magic, 3, 0, 1),
		"huge string":       append(head(Magic, 3, 0, 1), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f),
	} {
		if _, err := Read(bytes.NewReader(data)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v, want ErrFormat", name, err)
		}
	}
}

// Version 2 files (many GGUFs of 2023) have version 3's layout: read.
func TestReadsVersion2(t *testing.T) {
	var b bytes.Buffer
	for _, v := range []any{uint32(Magic), uint32(2), uint64(0), uint64(1), uint64(4), []byte("name"), uint32(TypeString), uint64(2), []byte("v2")} {
		_ = binary.Write(&b, binary.LittleEndian, v)
	}
	f, err := Read(&b)
	if err != nil || f.String("name") != "v2" {
		t.Fatalf("version 2: %v, %+v", err, f)
	}
}

func TestHalf(t *testing.T) {
	for x, want := range map[float32]uint16{0: 0, 1: 0x3c00, -2: 0xc000, 0.5: 0x3800, 65504: 0x7bff, 1e9: 0x7c00} {
		if got := Half(x); got != want {
			t.Errorf("Half(%v) = %#x, want %#x", x, got, want)
		}
	}
}
