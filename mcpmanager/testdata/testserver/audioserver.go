package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// serveAudio serves mode audioserver: a test MCP server (stdio, mcp-go) with one tool,
// get-tone, that returns audio: 0.1 s of a 440 Hz sine as a WAV file (8 kHz,
// mono, 16-bit PCM), built in code so the bytes are the same on every run.
// server-everything returns no audio; tests of audio reaching the model
// (app/chat, the window's e2e) start this one instead.
func serveAudio() {
	s := server.NewMCPServer("audioserver", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("get-tone", mcp.WithDescription("Returns 0.1 s of a 440 Hz tone as WAV audio.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				mcp.NewTextContent("A 440 Hz tone, 0.1 s."),
				mcp.NewAudioContent(base64.StdEncoding.EncodeToString(tone()), "audio/wav"),
			}}, nil
		})
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// tone is 0.1 s of a 440 Hz sine at half scale: a RIFF/WAVE file with one
// fmt chunk (PCM, 8000 Hz, 1 channel, 16 bits) and one data chunk.
func tone() []byte {
	const rate, samples = 8000, 800
	var pcm bytes.Buffer
	for i := range samples {
		v := int16(math.Round(16383 * math.Sin(2*math.Pi*440*float64(i)/rate)))
		_ = binary.Write(&pcm, binary.LittleEndian, v)
	}
	var b bytes.Buffer
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + pcm.Len()))
	b.WriteString("WAVEfmt ")
	le(uint32(16))       // fmt chunk size
	le(uint16(1))        // PCM
	le(uint16(1))        // mono
	le(uint32(rate))     // sample rate
	le(uint32(rate * 2)) // byte rate
	le(uint16(2))        // block align
	le(uint16(16))       // bits per sample
	b.WriteString("data")
	le(uint32(pcm.Len()))
	b.Write(pcm.Bytes())
	return b.Bytes()
}
