package host

import (
	"errors"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// TestNameTakenSaysWhatCanBeDone: a name taken where the user chose it
// says to pick another; one a registry or bundle fixes says how to free it,
// never to pick another where there is no way to.
func TestNameTakenSaysWhatCanBeDone(t *testing.T) {
	cfg := &config.Config{Servers: []config.Server{{Name: "weather", Command: "x"}}}
	if err := nameFree(cfg, "weather", pickAnother); !errors.Is(err, ErrNameTaken) || !strings.Contains(err.Error(), "pick another name") {
		t.Errorf("chosen name: %v", err)
	}
	err := nameFree(cfg, "weather", "")
	if !errors.Is(err, ErrNameTaken) || strings.Contains(err.Error(), "pick another") || !strings.Contains(err.Error(), `rename or remove the server named "weather" first`) {
		t.Errorf("fixed name: %v", err)
	}
	if err := nameFree(cfg, "free", ""); err != nil {
		t.Errorf("a free name: %v", err)
	}
}
