package testmodel

import (
	"bufio"
	"encoding/binary"
	"io"
	"math"

	"github.com/switchboard-app/switchboard/app/localmodel/gguf"
)

// The GGUF writer: only the models and metadata files tests write need it
// (the app only reads GGUF, package gguf), so it lives here.

// Encode writes f to w as a GGUF file, its tensors' Data laid out in order at the file's
// alignment (their Offsets are set).
func Encode(w io.Writer, f *gguf.File) error {
	align := uint64(gguf.DefaultAlignment)
	if a := f.Uint("general.alignment"); a > 0 {
		align = a
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	e := encoder{w: bw}
	e.put(uint32(gguf.Magic))
	e.put(uint32(gguf.Version))
	e.put(uint64(len(f.Tensors)))
	e.put(uint64(len(f.KVs)))
	for _, kv := range f.KVs {
		e.str(kv.Key)
		e.put(kv.Type)
		e.value(kv.Type, kv.Value)
	}
	var off uint64
	for i := range f.Tensors {
		t := &f.Tensors[i]
		t.Offset = off
		e.str(t.Name)
		e.put(uint32(len(t.Dims)))
		for _, n := range t.Dims {
			e.put(n)
		}
		e.put(t.Type)
		e.put(t.Offset)
		off += pad(uint64(len(t.Data)), align)
	}
	e.pad(align)
	for _, t := range f.Tensors {
		e.bytes(t.Data)
		e.pad(align)
	}
	if e.err != nil {
		return e.err
	}
	return bw.Flush()
}

func pad(n, align uint64) uint64 { return (n + align - 1) / align * align }

type encoder struct {
	w   io.Writer
	n   uint64
	err error
}

func (e *encoder) put(v any) {
	if e.err == nil {
		e.err = binary.Write(e.w, binary.LittleEndian, v)
		e.n += uint64(binary.Size(v))
	}
}

func (e *encoder) bytes(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
		e.n += uint64(len(b))
	}
}

func (e *encoder) str(s string) {
	e.put(uint64(len(s)))
	e.bytes([]byte(s))
}

func (e *encoder) pad(align uint64) {
	if n := pad(e.n, align) - e.n; n > 0 {
		e.bytes(make([]byte, n))
	}
}

func (e *encoder) value(t uint32, v any) {
	switch t {
	case gguf.TypeString:
		s, _ := v.(string)
		e.str(s)
	case gguf.TypeBool:
		b, _ := v.(bool)
		var u uint8
		if b {
			u = 1
		}
		e.put(u)
	case gguf.TypeArray:
		a, _ := v.(gguf.Array)
		e.put(a.Type)
		e.put(uint64(len(a.Items)))
		for _, it := range a.Items {
			e.value(a.Type, it)
		}
	default:
		e.put(v)
	}
}

// Half is x as IEEE half-precision bits (round to nearest, no subnormals:
// enough for random weights and norms of 1).
func Half(x float32) uint16 {
	b := math.Float32bits(x)
	sign := uint16(b>>16) & 0x8000
	exp := int((b>>23)&0xff) - 127 + 15
	mant := b & 0x7fffff
	switch {
	case exp <= 0:
		return sign
	case exp >= 31:
		return sign | 0x7c00
	}
	return sign | uint16(exp)<<10 | uint16((mant+0x1000)>>13)
}
