package secrets

import (
	"errors"
	"testing"

	"github.com/zalando/go-keyring"
)

func TestNamesNeverCollide(t *testing.T) {
	id := NewID()
	if !ValidID(id) || ValidID("victim") || ValidID(id+"0") {
		t.Fatalf("ValidID: %q", id)
	}
	names := map[string]string{}
	for _, n := range []string{
		ServerName(id, "env.TOKEN"), ServerName(id, "headers.TOKEN"), ServerName(id, "my server"), ServerName(id, "my_server"),
		ProviderName("openai"), ProviderName("open ai"), ProviderName("open_ai"), ServerName("provider", "openai.API_KEY"),
	} {
		if !validName.MatchString(n) {
			t.Errorf("%q is not a keyring name", n)
		}
		if prev, dup := names[n]; dup {
			t.Errorf("%q made twice (%s)", n, prev)
		}
		names[n] = n
	}
	if !OwnedBy(ServerName(id, "env.X"), id) || OwnedBy(ServerName(NewID(), "env.X"), id) || OwnedBy("victim_TOKEN", id) || OwnedBy("server..x", "") {
		t.Error("OwnedBy")
	}
	long := ServerName(id, string(make([]byte, 300)))
	if len(long) > 128 || !validName.MatchString(long) {
		t.Errorf("a long field: %q", long)
	}
}

// Two scopes (data dirs) on one keyring keep their own values.
func TestScopedStores(t *testing.T) {
	keyring.MockInit()
	BusCheck = nil
	a, b := NewStore(), NewStore()
	a.SetScope(NewID())
	b.SetScope(NewID())
	if err := a.Set("weather.api_key", "value-a-000001"); err != nil {
		t.Fatal(err)
	}
	if err := b.Set("weather.api_key", "value-b-000002"); err != nil {
		t.Fatal(err)
	}
	if v, _ := a.Get("weather.api_key"); v != "value-a-000001" {
		t.Fatalf("a reads %q", v)
	}
	if _, err := NewStore().Get("weather.api_key"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the unscoped store sees a scoped value: %v", err)
	}
}
