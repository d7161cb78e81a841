package chat

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// MaxAudioBytes is the largest audio clip (decoded bytes) a tool returns
// that reaches the model as audio: 10 MB, a few minutes of speech as MP3 or
// about a minute of 16 kHz WAV, well within OpenAI's request limit. Larger
// clips reach it as the one-line description they get when audio is off
// (audio is not re-encoded). A variable so tests can shorten it.
var MaxAudioBytes = 10 << 20

// errAudio: the audio cannot be sent as audio.
var errAudio = errors.New("the audio cannot be sent to the model")

// audioFormat maps the MIME types of audio to the formats models take
// (OpenAI's input_audio: wav and mp3).
var audioFormat = map[string]string{
	"audio/wav": "wav", "audio/x-wav": "wav", "audio/wave": "wav", "audio/vnd.wave": "wav",
	"audio/mpeg": "mp3", "audio/mp3": "mp3", "audio/mpeg3": "mp3",
}

// media says which of a tool result's images and audio go to the model as
// such (the turn's model accepts them); the rest is described in its text.
type media struct{ images, audio bool }

// modelAudio prepares a tool's audio for the model. Its error says why it
// cannot go as audio.
func modelAudio(c mcp.AudioContent) (provider.Audio, error) {
	mime, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(c.MIMEType)), ";")
	format, ok := audioFormat[strings.TrimSpace(mime)]
	if !ok {
		return provider.Audio{}, fmt.Errorf("%w: type %q (models take WAV or MP3)", errAudio, c.MIMEType)
	}
	if base64.StdEncoding.DecodedLen(len(c.Data)) > MaxAudioBytes+3 {
		return provider.Audio{}, fmt.Errorf("%w: larger than %d bytes", errAudio, MaxAudioBytes)
	}
	raw, err := base64.StdEncoding.DecodeString(c.Data)
	if err != nil {
		return provider.Audio{}, fmt.Errorf("%w: not base64: %w", errAudio, err)
	}
	if len(raw) == 0 {
		return provider.Audio{}, fmt.Errorf("%w: empty", errAudio)
	}
	if len(raw) > MaxAudioBytes {
		return provider.Audio{}, fmt.Errorf("%w: %d bytes, larger than %d", errAudio, len(raw), MaxAudioBytes)
	}
	return provider.Audio{Format: format, Data: c.Data}, nil
}
