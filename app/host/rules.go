package host

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/switchboard-app/switchboard/app/chat"
)

// AddRule validates an approval rule, gives it an ID and saves it in the
// chat settings; the error names the field that is wrong.
func (st *Settings) AddRule(r chat.Rule) (chat.Rule, error) {
	h := st.h
	if err := r.Validate(); err != nil {
		return chat.Rule{}, err
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	r.ID = hex.EncodeToString(b[:])
	err := h.Settings.EditChat(func(s *chat.Settings) error {
		s.Rules = append(s.Rules, r)
		return nil
	})
	return r, err
}

// RemoveRule deletes the approval rule with id.
func (st *Settings) RemoveRule(id string) error {
	h := st.h
	return h.Settings.EditChat(func(s *chat.Settings) error {
		n := len(s.Rules)
		s.Rules = slices.DeleteFunc(s.Rules, func(r chat.Rule) bool { return r.ID == id })
		if len(s.Rules) == n {
			return fmt.Errorf("no approval rule %q: it was removed already (reload the Tools page)", id)
		}
		return nil
	})
}
