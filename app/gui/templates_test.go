package gui

import (
	"slices"
	"strings"
	"testing"
)

// TestResourceTemplatesAsSlashCommands: server-everything's resource
// templates are offered with the prompts, their variables as arguments,
// completed by the server; using one reads the resource it names.
func TestResourceTemplatesAsSlashCommands(t *testing.T) {
	a := everythingApp(t)
	ps, err := a.ChatPage.Prompts()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ps, func(p PromptView) bool { return p.Name == "Dynamic Text Resource" })
	if i < 0 {
		t.Fatalf("no resource template among %+v", ps)
	}
	p := ps[i]
	if p.Template != "demo://resource/dynamic/text/{resourceId}" || len(p.Arguments) != 1 || p.Arguments[0].Name != "resourceId" {
		t.Fatalf("template %+v", p)
	}
	got, err := a.ChatPage.CompleteArgument("everything", "", p.Template, "resourceId", "12", nil)
	if err != nil || !slices.Equal(got, []string{"12"}) {
		t.Fatalf("CompleteArgument = %q, %v", got, err)
	}
	text, err := a.ChatPage.UseTemplate("everything", p.Template, map[string]string{"resourceId": "12"})
	if err != nil || !strings.HasPrefix(text, `<resource uri="demo://resource/dynamic/text/12" server="everything">`) {
		t.Fatalf("UseTemplate = %q, %v", text, err)
	}
}
