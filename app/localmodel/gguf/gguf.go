// Package gguf reads GGUF files (version 3), the model format of
// llama.cpp: its metadata, and its tensors' names, shapes and types. The
// local model provider reads a downloaded model's metadata (architecture,
// context length, chat template) with it. Writing one is for tests alone
// (small models with random weights, since no weights can be fetched to
// test with): package testmodel's Encode.
//
//	f, err := gguf.ReadFile("qwen3-1.7b-q4_k_m.gguf")
//	ctx := f.Uint("qwen3.context_length") // 40960
//
// The layout: "GGUF", version, tensor count, metadata count, the metadata
// (key, type, value), the tensor infos (name, dims, type, offset), padding
// to general.alignment (32 by default), then the tensor data.
package gguf

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// Magic is "GGUF" read as a little-endian uint32.
const Magic = 0x46554747

// Version is the GGUF version testmodel writes. This package reads version 2
// too (the same layout; 3 only allows big-endian files, which llama.cpp
// on a laptop does not load), as llama.cpp does.
const Version = 3

// DefaultAlignment is the data alignment without general.alignment.
const DefaultAlignment = 32

// Value types.
const (
	TypeUint8   uint32 = 0
	TypeInt8    uint32 = 1
	TypeUint16  uint32 = 2
	TypeInt16   uint32 = 3
	TypeUint32  uint32 = 4
	TypeInt32   uint32 = 5
	TypeFloat32 uint32 = 6
	TypeBool    uint32 = 7
	TypeString  uint32 = 8
	TypeArray   uint32 = 9
	TypeUint64  uint32 = 10
	TypeInt64   uint32 = 11
	TypeFloat64 uint32 = 12
)

// Tensor types (ggml_type) package testmodel writes; File.DataEnd sizes
// every type llama.cpp loads (typeSizes).
const (
	F32  uint32 = 0
	F16  uint32 = 1
	Q4_0 uint32 = 2
	Q8_0 uint32 = 8
)

// Limits on what a file may declare, so a broken or hostile file is an
// error, not an allocation of its choosing.
const (
	maxString  = 1 << 26
	maxArray   = 1 << 26
	maxEntries = 1 << 20
	maxDims    = 4
)

// ErrFormat is a file that is not GGUF version 3 or is cut short.
var ErrFormat = errors.New("not a GGUF (version 3) file")

// KV is one metadata entry. Value is a uint8…float64, bool, string, or an
// Array.
type KV struct {
	Key   string
	Type  uint32
	Value any
}

// Array is an array value: its element type and elements.
type Array struct {
	Type  uint32
	Items []any
}

// Tensor is a tensor's info; Data is set for tensors to write (and left
// nil when reading: only metadata is read).
type Tensor struct {
	Name   string
	Dims   []uint64 // ne[0] first: the innermost dimension
	Type   uint32
	Offset uint64
	Data   []byte
}

// File is a GGUF file's metadata and tensor infos.
type File struct {
	KVs     []KV
	Tensors []Tensor
	// DataOffset is where the tensor data starts in the file (the end of
	// the tensor infos, padded to the alignment); set by Read, and a
	// tensor's data is at DataOffset + its Offset.
	DataOffset int64
}

// Alignment is the file's data alignment (general.alignment, else
// DefaultAlignment).
func (f *File) Alignment() int64 {
	if a := f.Uint("general.alignment"); a > 0 && a <= 1<<20 {
		return int64(a)
	}
	return DefaultAlignment
}

// DataEnd is where the last tensor's data ends in the file: a file
// shorter than that is cut short (llama.cpp refuses it: "data is not
// within the file bounds"). ok is false when a tensor's type is one this
// package cannot size (a type newer than it), so the end is not known.
func (f *File) DataEnd() (end int64, ok bool) {
	end = f.DataOffset
	for _, t := range f.Tensors {
		n, ok := t.Bytes()
		if !ok {
			return 0, false
		}
		end = max(end, f.DataOffset+int64(t.Offset)+n)
	}
	return end, true
}

// Bytes is the size of the tensor's data (ggml_nbytes); ok is false for
// a type this package cannot size, or dimensions that do not fit it.
func (t Tensor) Bytes() (int64, bool) {
	bs, ok := typeSizes[t.Type]
	if !ok || len(t.Dims) == 0 {
		return 0, false
	}
	n := int64(1)
	for i, d := range t.Dims {
		if d > 1<<40 || (i == 0 && d%uint64(bs.block) != 0) {
			return 0, false
		}
		if i == 0 {
			d = d / uint64(bs.block) * uint64(bs.size)
		}
		if d != 0 && n > (1<<62)/int64(d) {
			return 0, false
		}
		n *= int64(d)
	}
	return n, true
}

// typeSizes are ggml's block size (values per block) and type size (bytes
// per block) of each tensor type a GGUF file may hold, as llama.cpp's
// ggml (ggml_blck_size, ggml_type_size) of the pinned release says them.
var typeSizes = map[uint32]struct{ block, size int64 }{
	0: {1, 4}, 1: {1, 2}, 2: {32, 18}, 3: {32, 20}, 6: {32, 22}, 7: {32, 24}, 8: {32, 34}, 9: {32, 36},
	10: {256, 84}, 11: {256, 110}, 12: {256, 144}, 13: {256, 176}, 14: {256, 210}, 15: {256, 292},
	16: {256, 66}, 17: {256, 74}, 18: {256, 98}, 19: {256, 50}, 20: {32, 18}, 21: {256, 110}, 22: {256, 82},
	23: {256, 136}, 24: {1, 1}, 25: {1, 2}, 26: {1, 4}, 27: {1, 8}, 28: {1, 8}, 29: {256, 56}, 30: {1, 2},
	34: {256, 54}, 35: {256, 66}, 39: {32, 17}, 40: {64, 36}, 41: {128, 18}, 42: {64, 18},
}

// Get returns the value of key.
func (f *File) Get(key string) (any, bool) {
	for _, kv := range f.KVs {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return nil, false
}

// String is key's string value, "" when it has none.
func (f *File) String(key string) string {
	v, _ := f.Get(key)
	s, _ := v.(string)
	return s
}

// Uint is key's integer value, 0 when it has none.
func (f *File) Uint(key string) uint64 {
	v, _ := f.Get(key)
	switch n := v.(type) {
	case uint8:
		return uint64(n)
	case uint16:
		return uint64(n)
	case uint32:
		return uint64(n)
	case uint64:
		return n
	case int32:
		if n > 0 {
			return uint64(n)
		}
	case int64:
		if n > 0 {
			return uint64(n)
		}
	}
	return 0
}

// Set replaces key's value, or adds it.
func (f *File) Set(key string, typ uint32, v any) {
	for i := range f.KVs {
		if f.KVs[i].Key == key {
			f.KVs[i] = KV{key, typ, v}
			return
		}
	}
	f.KVs = append(f.KVs, KV{key, typ, v})
}

// ReadFile reads the metadata and tensor infos of the GGUF file at path.
func ReadFile(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	f, err := Read(bufio.NewReaderSize(fh, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Read reads the metadata and tensor infos from r, which starts at the
// file's first byte (DataOffset counts from there).
func Read(r io.Reader) (*File, error) {
	d := decoder{r: &counter{r: r}}
	if d.u32() != Magic {
		return nil, d.fail(ErrFormat)
	}
	if v := d.u32(); v != 2 && v != Version {
		return nil, d.fail(fmt.Errorf("%w: GGUF version %d (llama.cpp loads versions 2 and 3)", ErrFormat, v))
	}
	nt, nkv := d.u64(), d.u64()
	if d.err != nil || nt > maxEntries || nkv > maxEntries {
		return nil, d.fail(fmt.Errorf("%w: %d tensors, %d metadata entries", ErrFormat, nt, nkv))
	}
	f := &File{}
	for range nkv {
		k := d.str()
		t := d.u32()
		v := d.value(t)
		if d.err != nil {
			return nil, d.fail(ErrFormat)
		}
		f.KVs = append(f.KVs, KV{k, t, v})
	}
	for range nt {
		t := Tensor{Name: d.str()}
		n := d.u32()
		if n > maxDims {
			return nil, fmt.Errorf("%w: tensor %q has %d dimensions", ErrFormat, t.Name, n)
		}
		for range n {
			t.Dims = append(t.Dims, d.u64())
		}
		t.Type, t.Offset = d.u32(), d.u64()
		if d.err != nil {
			return nil, d.fail(ErrFormat)
		}
		f.Tensors = append(f.Tensors, t)
	}
	a := f.Alignment()
	f.DataOffset = (d.r.n + a - 1) / a * a
	return f, nil
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

type decoder struct {
	r   *counter
	err error
}

func (d *decoder) fail(err error) error {
	if d.err != nil && !errors.Is(err, ErrFormat) {
		return fmt.Errorf("%w: %w", err, d.err)
	}
	if d.err != nil {
		return fmt.Errorf("%w: %w", ErrFormat, d.err)
	}
	return err
}

func (d *decoder) read(v any) {
	if d.err == nil {
		d.err = binary.Read(d.r, binary.LittleEndian, v)
	}
}

func (d *decoder) u32() uint32 { var v uint32; d.read(&v); return v }
func (d *decoder) u64() uint64 { var v uint64; d.read(&v); return v }

func (d *decoder) str() string {
	n := d.u64()
	if d.err != nil || n > maxString {
		if d.err == nil {
			d.err = fmt.Errorf("a string of %d bytes", n)
		}
		return ""
	}
	b := make([]byte, n)
	if d.err == nil {
		_, d.err = io.ReadFull(d.r, b)
	}
	return string(b)
}

func (d *decoder) value(t uint32) any {
	switch t {
	case TypeUint8:
		var v uint8
		d.read(&v)
		return v
	case TypeInt8:
		var v int8
		d.read(&v)
		return v
	case TypeUint16:
		var v uint16
		d.read(&v)
		return v
	case TypeInt16:
		var v int16
		d.read(&v)
		return v
	case TypeUint32:
		return d.u32()
	case TypeInt32:
		var v int32
		d.read(&v)
		return v
	case TypeFloat32:
		var v float32
		d.read(&v)
		return v
	case TypeBool:
		var v uint8
		d.read(&v)
		return v != 0
	case TypeString:
		return d.str()
	case TypeUint64:
		return d.u64()
	case TypeInt64:
		var v int64
		d.read(&v)
		return v
	case TypeFloat64:
		var v float64
		d.read(&v)
		return v
	case TypeArray:
		et, n := d.u32(), d.u64()
		if d.err != nil || n > maxArray || et == TypeArray {
			if d.err == nil {
				d.err = fmt.Errorf("an array of %d elements of type %d", n, et)
			}
			return nil
		}
		a := Array{Type: et, Items: make([]any, 0, min(n, 1<<16))}
		for range n {
			a.Items = append(a.Items, d.value(et))
			if d.err != nil {
				return nil
			}
		}
		return a
	}
	if d.err == nil {
		d.err = fmt.Errorf("unknown value type %d", t)
	}
	return nil
}
