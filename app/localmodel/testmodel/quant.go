package testmodel

import (
	"encoding/binary"
	"math/rand/v2"

	"github.com/switchboard-app/switchboard/app/localmodel/gguf"
)

// fileTypes are general.file_type (llama_ftype) for the tensor types
// WriteType writes.
var fileTypes = map[uint32]uint32{
	gguf.F16:  1, // LLAMA_FTYPE_MOSTLY_F16
	gguf.Q4_0: 2, // LLAMA_FTYPE_MOSTLY_Q4_0
}

// q4Block is ggml's Q4_0 block: 32 weights as an F16 scale and 16 bytes
// of 4-bit values (weight i in the low nibble of byte i, weight i+16 in the
// high one), each weight (q-8)×scale.
const (
	q4Weights = 32
	q4Bytes   = 2 + q4Weights/2
)

// q4Scale makes uniform 4-bit values (q-8 in -8…7, standard deviation
// ≈4.6) weights of standard deviation ≈0.02, as tensor's F16 ones.
const q4Scale = 0.02 / 4.6

// q4Tensor is a Q4_0 tensor of dims with random weights. The blocks are
// drawn directly (random nibbles under one scale), not quantised from
// floats: the bytes are as a quantiser would write them, in a fraction of
// the time. dims[0] must be a multiple of 32, as in every Qwen3 shape.
func q4Tensor(name string, dims []int, rng *rand.Rand) gguf.Tensor {
	n := 1
	ds := make([]uint64, len(dims))
	for i, d := range dims {
		n *= d
		ds[i] = uint64(d)
	}
	if dims[0]%q4Weights != 0 {
		panic("testmodel: a Q4_0 row must be a multiple of 32 weights: " + name)
	}
	blocks := n / q4Weights
	data := make([]byte, blocks*q4Bytes)
	scale := Half(q4Scale)
	for b := range blocks {
		blk := data[b*q4Bytes : (b+1)*q4Bytes]
		binary.LittleEndian.PutUint16(blk, scale)
		binary.LittleEndian.PutUint64(blk[2:], rng.Uint64())
		binary.LittleEndian.PutUint64(blk[10:], rng.Uint64())
	}
	return gguf.Tensor{Name: name, Dims: ds, Type: gguf.Q4_0, Data: data}
}
