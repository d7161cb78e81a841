package chat

import (
	"unicode/utf8"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/toolsearch"
)

// Token estimates. No provider tells the size of a request before it is
// sent, and one tokenizer per model family is more than a desktop host
// should ship; so the engine estimates from the text (bytes of ASCII at 4
// a token, every other character a token: CJK text runs near one token a
// character, accented Latin near ASCII), and corrects the estimate by what
// the provider reports it used (calibration, per chat).
const (
	// perMessageTokens is what a wire adds around each message (role,
	// separators, the call's id and name).
	perMessageTokens = 6
	// imageTokens stands in for one image: providers charge 85–1,600
	// tokens an image by its size; this is the high end, at our largest
	// side (MaxImageSide).
	imageTokens = 1_600
	// audioTokens stands in for one clip.
	audioTokens = 1_000
	// minScale and maxScale bound the calibration: a provider whose
	// reported usage is far off (a cached prompt counted as 0) must not
	// make the estimate absurd.
	minScale, maxScale = 0.5, 4.0
)

// textTokens estimates the tokens of s.
func textTokens(s string) int {
	ascii, other := 0, 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			ascii++
			i++
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
		other++
	}
	return (ascii+3)/4 + other
}

// messageTokens estimates one message as a provider receives it.
func messageTokens(m provider.Message) int {
	n := perMessageTokens + textTokens(m.Text) + len(m.Images)*imageTokens + len(m.Audio)*audioTokens
	for _, c := range m.ToolCalls {
		n += perMessageTokens + textTokens(c.Name) + textTokens(string(c.Arguments))
	}
	return n
}

// toolTokens estimates the definitions of tools, as tool search counts
// them.
func toolTokens(tools []provider.Tool) int {
	n := 0
	for _, t := range tools {
		n += toolsearch.Tokens(t.Name, t.Description, t.InputSchema)
	}
	return n
}

// calibration scales a chat's estimates to what its provider reports. The
// engine keeps it per chat between turns, and rebuilds it from the
// history when it opens a chat again (each assistant message keeps the
// estimate of its request and the tokens the provider reported for it), so
// a chat continued by another run of the CLI, or after the window
// restarted, counts as it did.
type calibration struct {
	scale float64 // reported / estimated; 0 means not calibrated yet
}

// uncalibrated scales the estimate of a model the chat has no report of
// yet (a new chat, a new model): tokenizers count JSON, code and tool
// results denser than prose, up to three characters a token, so the first
// request of a chat is counted as if they did, and compacted early rather
// than refused.
const uncalibrated = 1.4

// apply scales an estimate.
func (c calibration) apply(n int) int {
	s := c.scale
	if s == 0 {
		s = uncalibrated
	}
	return int(float64(n)*s + 0.5)
}

// learn takes one request's estimate and the input tokens the provider
// reported for it (or counted exactly). Reports of 0 (providers that
// report nothing) are ignored. A report above the scale is taken at once
// (an estimate that runs short sends requests over the window), one below
// it moves the scale halfway (one odd report, a cached prompt counted
// short, does not make the next request too long).
func (c *calibration) learn(estimated, reported int) {
	if estimated <= 0 || reported <= 0 {
		return
	}
	s := float64(reported) / float64(estimated)
	s = max(minScale, min(maxScale, s))
	if c.scale == 0 || s > c.scale {
		c.scale = s
		return
	}
	c.scale = (c.scale + s) / 2
}

// set takes an exact count of a request whose estimate was estimated:
// the scale is that ratio from now on.
func (c *calibration) set(estimated, exact int) {
	if estimated > 0 && exact > 0 {
		c.scale = max(minScale, min(maxScale, float64(exact)/float64(estimated)))
	}
}
