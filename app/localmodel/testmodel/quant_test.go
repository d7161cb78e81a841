package testmodel

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/switchboard-app/switchboard/app/localmodel/gguf"
)

// A Q4_0 tensor is ggml's layout: 18 bytes per 32 weights, each block's
// scale the F16 one chosen, its weights (q-8)×scale spread like the F16
// tensors' (standard deviation ≈0.02, mean ≈0).
func TestQ4TensorLayoutAndSpread(t *testing.T) {
	tests := []struct {
		dims   []int
		blocks int
	}{
		{[]int{64, 3}, 6},
		{[]int{1024, 128}, 4096},
	}
	for _, tc := range tests {
		x := q4Tensor("w", tc.dims, rand.New(rand.NewPCG(1, 2)))
		if x.Type != gguf.Q4_0 || len(x.Data) != tc.blocks*18 || len(x.Dims) != len(tc.dims) || x.Dims[0] != uint64(tc.dims[0]) {
			t.Fatalf("%v: type %d, %d bytes, dims %v", tc.dims, x.Type, len(x.Data), x.Dims)
		}
		var sum, sq float64
		seen := map[int]bool{}
		for b := range tc.blocks {
			blk := x.Data[b*18 : (b+1)*18]
			if s := binary.LittleEndian.Uint16(blk); s != Half(q4Scale) {
				t.Fatalf("block %d: scale %#x", b, s)
			}
			for _, by := range blk[2:] {
				for _, q := range []int{int(by & 0xf), int(by >> 4)} {
					seen[q] = true
					w := float64(q-8) * q4Scale
					sum, sq = sum+w, sq+w*w
				}
			}
		}
		n := float64(tc.blocks * 32)
		mean, sd := sum/n, math.Sqrt(sq/n-(sum/n)*(sum/n))
		if tc.blocks > 1000 && (len(seen) != 16 || math.Abs(mean) > 0.003 || sd < 0.017 || sd > 0.023) {
			t.Fatalf("%v: %d distinct values, mean %.4f, sd %.4f", tc.dims, len(seen), mean, sd)
		}
	}
}

func TestQ4TensorRefusesARowOfNot32(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a row of 48 weights was written as Q4_0")
		}
	}()
	q4Tensor("w", []int{48, 2}, rand.New(rand.NewPCG(1, 2)))
}

func TestWriteTypeRefusesAnUnknownType(t *testing.T) {
	if err := WriteType(t.TempDir()+"/m.gguf", t.TempDir(), Tiny, 1, gguf.Q8_0); err == nil {
		t.Fatal("Q8_0 was accepted, which WriteType does not write")
	}
}
