package gguf

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

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
