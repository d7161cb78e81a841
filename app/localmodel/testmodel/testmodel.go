// Package testmodel writes GGUF models with random weights for tests and
// benchmarks of the local model provider: Qwen3's architecture at a chosen
// shape, with the Qwen2 tokenizer that llama.cpp's source ships
// (models/ggml-vocab-qwen2.gguf) given Qwen3's special tokens, and Qwen3's
// chat template (models/templates/Qwen-Qwen3-0.6B.jinja). Random weights
// never choose a tool, but they run at a real model's speed for its shape,
// and llama.cpp's server, template and tool-call parsing are the real ones.
//
//	err := testmodel.Write("tiny.gguf", llamaSrc, testmodel.Tiny, 1)
package testmodel

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/switchboard-app/switchboard/app/localmodel/gguf"
)

// Shape is a model's size.
type Shape struct {
	Name    string
	Layers  int
	Embd    int // hidden size
	FF      int // feed-forward size
	Heads   int
	KVHeads int
	HeadDim int
	Context int // the context length the model declares
}

// Shapes: a tiny one for tests (seconds to write, ~40 MB), and Qwen3's
// 0.6B and 1.7B (for benchmarks: their speed is a real model's).
var (
	Tiny      = Shape{Name: "tiny", Layers: 2, Embd: 64, FF: 128, Heads: 4, KVHeads: 2, HeadDim: 16, Context: 4096}
	Qwen3_06B = Shape{Name: "qwen3-0.6b", Layers: 28, Embd: 1024, FF: 3072, Heads: 16, KVHeads: 8, HeadDim: 128, Context: 40960}
	Qwen3_17B = Shape{Name: "qwen3-1.7b", Layers: 28, Embd: 2048, FF: 6144, Heads: 16, KVHeads: 8, HeadDim: 128, Context: 40960}
)

// qwen3Tokens are Qwen3's added tokens from id 151646 on (the Qwen2 vocab
// has padding there), so its chat template's <tool_call> and <think> are
// single tokens as in the real model.
var qwen3Tokens = []string{
	"<|object_ref_start|>", "<|object_ref_end|>", "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>",
	"<|vision_start|>", "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>",
	"<tool_call>", "</tool_call>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>",
	"<|repo_name|>", "<|file_sep|>", "<tool_response>", "</tool_response>", "<think>", "</think>",
}

const (
	firstAdded = 151646
	imEnd      = 151645
	// Token types (llama_token_type).
	typeControl     = 3
	typeUserDefined = 4
)

// Write writes a model of shape s to path, its tokenizer and template
// from the llama.cpp source tree at src, its weights random from seed.
func Write(path, src string, s Shape, seed uint64) error {
	return WriteType(path, src, s, seed, gguf.F16)
}

// WriteType is Write with the matrices stored as typ: gguf.F16, or
// gguf.Q4_0 (4.5 bits a weight, so a model of a shape is the size and
// speed of a 4-bit download of it).
func WriteType(path, src string, s Shape, seed uint64, typ uint32) error {
	fileType, ok := fileTypes[typ]
	if !ok {
		return fmt.Errorf("testmodel: tensor type %d is not one it writes", typ)
	}
	vocab, err := gguf.ReadFile(filepath.Join(src, "models", "ggml-vocab-qwen2.gguf"))
	if err != nil {
		return fmt.Errorf("testmodel: the tokenizer: %w", err)
	}
	tmpl, err := os.ReadFile(filepath.Join(src, "models", "templates", "Qwen-Qwen3-0.6B.jinja"))
	if err != nil {
		return fmt.Errorf("testmodel: the chat template: %w", err)
	}
	f := &gguf.File{}
	u32 := func(k string, v int) { f.Set(k, gguf.TypeUint32, uint32(v)) }
	f.Set("general.architecture", gguf.TypeString, "qwen3")
	f.Set("general.name", gguf.TypeString, "switchboard test model "+s.Name)
	f.Set("general.file_type", gguf.TypeUint32, fileType)
	u32("general.alignment", gguf.DefaultAlignment)
	u32("qwen3.block_count", s.Layers)
	u32("qwen3.context_length", s.Context)
	u32("qwen3.embedding_length", s.Embd)
	u32("qwen3.feed_forward_length", s.FF)
	u32("qwen3.attention.head_count", s.Heads)
	u32("qwen3.attention.head_count_kv", s.KVHeads)
	u32("qwen3.attention.key_length", s.HeadDim)
	u32("qwen3.attention.value_length", s.HeadDim)
	f.Set("qwen3.rope.freq_base", gguf.TypeFloat32, float32(1e6))
	f.Set("qwen3.attention.layer_norm_rms_epsilon", gguf.TypeFloat32, float32(1e-6))
	nVocab := 0
	for _, kv := range vocab.KVs {
		switch kv.Key {
		case "tokenizer.ggml.tokens":
			a := kv.Value.(gguf.Array)
			items := append([]any(nil), a.Items...)
			for i, t := range qwen3Tokens {
				items[firstAdded+i] = t
			}
			nVocab = len(items)
			f.Set(kv.Key, kv.Type, gguf.Array{Type: a.Type, Items: items})
		case "tokenizer.ggml.token_type":
			a := kv.Value.(gguf.Array)
			items := append([]any(nil), a.Items...)
			for i, t := range qwen3Tokens {
				typ := int32(typeControl)
				if t[0] == '<' && t[1] != '|' { // <tool_call>, <think>: text the model writes
					typ = typeUserDefined
				}
				items[firstAdded+i] = typ
			}
			f.Set(kv.Key, kv.Type, gguf.Array{Type: a.Type, Items: items})
		case "tokenizer.ggml.model", "tokenizer.ggml.pre", "tokenizer.ggml.merges", "tokenizer.ggml.padding_token_id", "tokenizer.ggml.bos_token_id":
			f.Set(kv.Key, kv.Type, kv.Value)
		}
	}
	if nVocab <= firstAdded+len(qwen3Tokens) {
		return fmt.Errorf("testmodel: the tokenizer has %d tokens", nVocab)
	}
	f.Set("tokenizer.ggml.eos_token_id", gguf.TypeUint32, uint32(imEnd))
	f.Set("tokenizer.ggml.add_bos_token", gguf.TypeBool, false)
	f.Set("tokenizer.chat_template", gguf.TypeString, string(tmpl))

	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	random := func(name string, dims ...int) {
		if typ == gguf.Q4_0 {
			f.Tensors = append(f.Tensors, q4Tensor(name, dims, rng))
			return
		}
		f.Tensors = append(f.Tensors, tensor(name, dims, func() float32 { return float32(rng.NormFloat64() * 0.02) }))
	}
	ones := func(name string, dims ...int) {
		f.Tensors = append(f.Tensors, tensor(name, dims, func() float32 { return 1 }))
	}
	random("token_embd.weight", s.Embd, nVocab)
	ones("output_norm.weight", s.Embd)
	for i := range s.Layers {
		b := fmt.Sprintf("blk.%d.", i)
		ones(b+"attn_norm.weight", s.Embd)
		random(b+"attn_q.weight", s.Embd, s.Heads*s.HeadDim)
		random(b+"attn_k.weight", s.Embd, s.KVHeads*s.HeadDim)
		random(b+"attn_v.weight", s.Embd, s.KVHeads*s.HeadDim)
		random(b+"attn_output.weight", s.Heads*s.HeadDim, s.Embd)
		ones(b+"attn_q_norm.weight", s.HeadDim)
		ones(b+"attn_k_norm.weight", s.HeadDim)
		ones(b+"ffn_norm.weight", s.Embd)
		random(b+"ffn_gate.weight", s.Embd, s.FF)
		random(b+"ffn_up.weight", s.Embd, s.FF)
		random(b+"ffn_down.weight", s.FF, s.Embd)
	}
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := Encode(out, f); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// tensor is an F16 tensor (norms F32, as converted models have them) of
// dims filled by next.
func tensor(name string, dims []int, next func() float32) gguf.Tensor {
	n := 1
	ds := make([]uint64, len(dims))
	for i, d := range dims {
		n *= d
		ds[i] = uint64(d)
	}
	if len(dims) == 1 {
		data := make([]byte, 4*n)
		for i := range n {
			binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(next()))
		}
		return gguf.Tensor{Name: name, Dims: ds, Type: gguf.F32, Data: data}
	}
	data := make([]byte, 2*n)
	for i := range n {
		binary.LittleEndian.PutUint16(data[2*i:], Half(next()))
	}
	return gguf.Tensor{Name: name, Dims: ds, Type: gguf.F16, Data: data}
}
