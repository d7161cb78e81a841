package chat

import (
	"fmt"
	"sync"
	"time"

	"github.com/switchboard-app/switchboard/app/chat/provider"
)

// A server's sampling request spends the user's model (and money) on a
// prompt the server wrote. It is decided here, once, for the window and the
// CLI alike: by the user's setting (ask, allow a few per chat, deny), only
// while one of the server's own tool calls is running (unless the user
// allowed more), and never more often than a cap per server and minute.
// The CLI's --yes is not a yes to sampling: it approves tool calls and
// forms only.

// Sampling modes (SamplingSettings.Mode).
const (
	SamplingAsk   = "ask"   // every request shows the approval card (the default)
	SamplingAllow = "allow" // up to PerChat requests per chat go to the model unasked, then ask
	SamplingDeny  = "deny"  // every request is refused
)

// Defaults of SamplingSettings' zero fields.
var (
	// DefaultSamplingPerChat is how many requests "allow" lets through per chat.
	DefaultSamplingPerChat = 5
	// DefaultSamplingPerMinute is the cap of requests per server and minute.
	DefaultSamplingPerMinute = 10
	// DefaultSamplingMaxTokens caps a sampling answer when the model's own
	// output limit is not known.
	DefaultSamplingMaxTokens = 4096
)

// SamplingSettings is the "sampling" part of the chat settings.
type SamplingSettings struct {
	// Mode is ask ("" too), allow or deny.
	Mode string `json:"mode,omitempty"`
	// PerChat: with "allow", how many requests of one chat go to the model
	// without asking; later ones ask (0: DefaultSamplingPerChat).
	PerChat int `json:"perChat,omitempty"`
	// PerMinute caps the requests one server may make in a minute, asked
	// or not; past it they are refused (0: DefaultSamplingPerMinute).
	PerMinute int `json:"perMinute,omitempty"`
	// OutsideCalls lets a server ask while none of its tool calls is
	// running (a server that samples on its own schedule). Off by default.
	OutsideCalls bool `json:"outsideCalls,omitempty"`
}

// Normal is s with its defaults filled in.
func (s SamplingSettings) Normal() SamplingSettings {
	if s.Mode == "" {
		s.Mode = SamplingAsk
	}
	if s.PerChat <= 0 {
		s.PerChat = DefaultSamplingPerChat
	}
	if s.PerMinute <= 0 {
		s.PerMinute = DefaultSamplingPerMinute
	}
	return s
}

// Validate says what to fix in s.
func (s SamplingSettings) Validate() error {
	switch s.Mode {
	case "", SamplingAsk, SamplingAllow, SamplingDeny:
	default:
		return fmt.Errorf("sampling mode %q: use ask, allow or deny", s.Mode)
	}
	if s.PerChat < 0 || s.PerChat > 1000 {
		return fmt.Errorf("sampling requests per chat must be 1 to 1000, not %d", s.PerChat)
	}
	if s.PerMinute < 0 || s.PerMinute > 1000 {
		return fmt.Errorf("sampling requests per server and minute must be 1 to 1000, not %d", s.PerMinute)
	}
	return nil
}

// SamplingFacts is what is known of a sampling request when it is decided.
type SamplingFacts struct {
	Server string
	// InCall: one of the server's tool calls is running.
	InCall bool
	// SentInChat is how many of the chat's requests already went to the
	// model without asking (Mode allow).
	SentInChat int
	// LastMinute is how many requests of the server were let through (sent
	// or asked) in the last minute.
	LastMinute int
}

// DecideSampling decides a server's sampling request: Refuse (Why is the
// sentence the server and the user get), Ask the user, or Run (send it to
// the model). Deny, a request outside a tool call and one past the cap are
// refused whatever the mode.
func DecideSampling(s SamplingSettings, f SamplingFacts) Ruling {
	s = s.Normal()
	switch {
	case s.Mode == SamplingDeny:
		return Ruling{Verdict: Refuse, Why: "sampling is turned off in Settings → Chat → Sampling"}
	case !f.InCall && !s.OutsideCalls:
		return Ruling{Verdict: Refuse, Why: fmt.Sprintf("%s asked while none of its tool calls was running; a server may use the model only while it answers a call (Settings → Chat → Sampling can allow more)", f.Server)}
	case f.LastMinute >= s.PerMinute:
		return Ruling{Verdict: Refuse, Why: fmt.Sprintf("%s asked more than %d times in a minute, the limit in Settings → Chat → Sampling", f.Server, s.PerMinute)}
	case s.Mode == SamplingAllow && f.SentInChat < s.PerChat:
		return Ruling{Verdict: Run}
	}
	return Ruling{Verdict: Ask}
}

// ClampMaxTokens is the maxTokens a sampling request for model is sent
// with: what the server asked, at most the model's known output limit
// (provider.KnownMaxOutput), else DefaultSamplingMaxTokens; a request that
// asks for nothing (0) gets the limit, so no answer is unbounded.
func ClampMaxTokens(asked int, model string) int {
	limit := provider.KnownMaxOutput(model)
	if limit <= 0 {
		limit = DefaultSamplingMaxTokens
	}
	if asked <= 0 || asked > limit {
		return limit
	}
	return asked
}

// samplingMeter counts what DecideSampling weighs: per server, the
// requests let through in the last minute; per chat, those sent unasked.
// Deciding and counting happen under one lock, so a server asking in
// parallel cannot slip past the cap.
type samplingMeter struct {
	mu     sync.Mutex
	now    func() time.Time // time.Now; a fake clock in tests
	recent map[string][]time.Time
	sent   map[string]int // chat ID ("" outside a chat) → sent unasked
}

// decide decides one request and counts it unless it is refused.
func (m *samplingMeter) decide(s SamplingSettings, server, chatID string, inCall bool) Ruling {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.recent == nil {
		m.recent, m.sent = map[string][]time.Time{}, map[string]int{}
	}
	now := time.Now()
	if m.now != nil {
		now = m.now()
	}
	kept := m.recent[server][:0]
	for _, t := range m.recent[server] {
		if now.Sub(t) < time.Minute {
			kept = append(kept, t)
		}
	}
	m.recent[server] = kept
	r := DecideSampling(s, SamplingFacts{Server: server, InCall: inCall, SentInChat: m.sent[chatID], LastMinute: len(kept)})
	if r.Verdict == Refuse {
		return r
	}
	m.recent[server] = append(kept, now)
	if r.Verdict == Run {
		m.sent[chatID]++
	}
	return r
}
