package chat

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// TestModelAudio: WAV and MP3 types map to the formats models take; other
// types, clips over MaxAudioBytes, empty or bad base64 cannot go as audio.
func TestModelAudio(t *testing.T) {
	old := MaxAudioBytes
	MaxAudioBytes = 16
	t.Cleanup(func() { MaxAudioBytes = old })
	small := base64.StdEncoding.EncodeToString([]byte("RIFF....WAVE"))
	exact := base64.StdEncoding.EncodeToString(make([]byte, 16))
	large := base64.StdEncoding.EncodeToString(make([]byte, 17))
	for _, tc := range []struct {
		mime, data string
		format     string // "" when it cannot go
	}{
		{"audio/wav", small, "wav"},
		{"audio/x-wav", small, "wav"},
		{"audio/wave", small, "wav"},
		{"Audio/WAV", small, "wav"},
		{"audio/mpeg", small, "mp3"},
		{"audio/mp3", small, "mp3"},
		{"audio/mpeg; codecs=mp3", small, "mp3"},
		{"audio/wav", exact, "wav"},
		{"audio/wav", large, ""},
		{"audio/ogg", small, ""},
		{"audio/flac", small, ""},
		{"audio/wav", "not base64!", ""},
		{"audio/wav", "", ""},
	} {
		got, err := modelAudio(mcp.AudioContent{Type: "audio", MIMEType: tc.mime, Data: tc.data})
		if tc.format == "" {
			if !errors.Is(err, errAudio) {
				t.Errorf("%s (%d chars): %+v, %v; want errAudio", tc.mime, len(tc.data), got, err)
			}
			continue
		}
		if err != nil || got != (provider.Audio{Format: tc.format, Data: tc.data}) {
			t.Errorf("%s: %+v, %v; want format %s and the data as is", tc.mime, got, err, tc.format)
		}
	}
}

// TestAttachAudio: with audio on, each clip that can go is attached and its
// line in the text says so; one that cannot keeps its description; with
// audio off (or images only) every clip is described, and the result the
// caller passed is never changed.
func TestAttachAudio(t *testing.T) {
	old := MaxAudioBytes
	MaxAudioBytes = 64
	t.Cleanup(func() { MaxAudioBytes = old })
	wav := base64.StdEncoding.EncodeToString([]byte("RIFF....WAVE"))
	mp3 := base64.StdEncoding.EncodeToString([]byte("ID3...."))
	huge := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", 65)))
	content := []mcp.Content{
		mcp.NewTextContent("three clips"),
		mcp.NewAudioContent(wav, "audio/wav"),
		mcp.NewAudioContent(huge, "audio/wav"),
		mcp.NewAudioContent(mp3, "audio/mpeg"),
		mcp.NewAudioContent(wav, "audio/ogg"),
	}
	for _, tc := range []struct {
		md        media
		wantAudio []provider.Audio
		wantText  string
	}{
		{media{audio: true}, []provider.Audio{{Format: "wav", Data: wav}, {Format: "mp3", Data: mp3}},
			"three clips\n[audio 1: wav, attached]\n[audio audio/wav, 88 bytes base64]\n[audio 2: mp3, attached]\n[audio audio/ogg, 16 bytes base64]"},
		{media{images: true}, nil,
			"three clips\n[audio audio/wav, 16 bytes base64]\n[audio audio/wav, 88 bytes base64]\n[audio audio/mpeg, 12 bytes base64]\n[audio audio/ogg, 16 bytes base64]"},
		{media{}, nil,
			"three clips\n[audio audio/wav, 16 bytes base64]\n[audio audio/wav, 88 bytes base64]\n[audio audio/mpeg, 12 bytes base64]\n[audio audio/ogg, 16 bytes base64]"},
	} {
		res := mcp.CallToolResult{Content: content}
		imgs, clips := attach(&res, tc.md)
		if len(imgs) != 0 || len(clips) != len(tc.wantAudio) {
			t.Fatalf("%+v: %d images, %d clips; want %d clips", tc.md, len(imgs), len(clips), len(tc.wantAudio))
		}
		for i := range clips {
			if clips[i] != tc.wantAudio[i] {
				t.Errorf("%+v: clip %d %+v, want %+v", tc.md, i, clips[i], tc.wantAudio[i])
			}
		}
		if got := resultText(&res); got != tc.wantText {
			t.Errorf("%+v: text\n%s\nwant\n%s", tc.md, got, tc.wantText)
		}
		if _, ok := content[1].(mcp.AudioContent); !ok {
			t.Fatal("attach changed the caller's content")
		}
	}
}

// TestSamplingRequestCarriesAudio: a sampling request's audio — in a
// tool_result and in a user message — goes as audio when the model takes
// it, else as its description.
func TestSamplingRequestCarriesAudio(t *testing.T) {
	wav := base64.StdEncoding.EncodeToString([]byte("RIFF....WAVE"))
	raw := `{"messages":[
		{"role":"user","content":[{"type":"text","text":"Listen"},{"type":"audio","mimeType":"audio/mpeg","data":"` + wav + `"}]},
		{"role":"assistant","content":[{"type":"tool_use","id":"a1","name":"record","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","toolUseId":"a1","content":[{"type":"audio","mimeType":"audio/wav","data":"` + wav + `"}]}]}
	],"tools":[{"name":"record","inputSchema":{"type":"object"}}],"maxTokens":50}`
	var p mcp.CreateMessageParams
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatal(err)
	}
	for i := range p.Messages {
		c, err := mcp.ParseSamplingContent(p.Messages[i].Content)
		if err != nil {
			t.Fatal(err)
		}
		p.Messages[i].Content = c
	}
	for _, audio := range []bool{true, false} {
		pr, err := samplingRequest(Model{Name: "m", Audio: audio}, p)
		if err != nil {
			t.Fatal(err)
		}
		if len(pr.Messages) != 3 {
			t.Fatalf("audio %v: %+v", audio, pr.Messages)
		}
		user, tool := pr.Messages[0], pr.Messages[2]
		if audio {
			if user.Text != "Listen" || !reflect.DeepEqual(user.Audio, []provider.Audio{{Format: "mp3", Data: wav}}) ||
				tool.Text != "[audio 1: wav, attached]" || !reflect.DeepEqual(tool.Audio, []provider.Audio{{Format: "wav", Data: wav}}) {
				t.Errorf("audio on: user %+v, tool %+v", user, tool)
			}
			continue
		}
		if len(user.Audio) != 0 || len(tool.Audio) != 0 || strings.Contains(user.Text+tool.Text, wav) ||
			!strings.Contains(tool.Text, "[audio audio/wav, ") {
			t.Errorf("audio off: user %+v, tool %+v", user, tool)
		}
	}
}
