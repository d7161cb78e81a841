package gateway

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// upCompleter suggests the cities starting with what is typed, for the
// "city" argument of a prompt or a template; it records what it was asked.
type upCompleter struct{ asked chan string }

var cities = []string{"Berlin", "Bern", "Bergen", "Boston"}

func (u upCompleter) suggest(what, value string) (*mcp.Completion, error) {
	u.asked <- what
	var out []string
	for _, c := range cities {
		if strings.HasPrefix(c, value) {
			out = append(out, c)
		}
	}
	return &mcp.Completion{Values: out}, nil
}

func (u upCompleter) CompletePromptArgument(_ context.Context, name string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	return u.suggest("prompt "+name+" "+arg.Name, arg.Value)
}

func (u upCompleter) CompleteResourceArgument(_ context.Context, uri string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	return u.suggest("template "+uri+" "+arg.Name, arg.Value)
}

// TestCompletionRelayed: completion/complete of a published prompt or
// resource template is asked of its server under the server's own name
// for it, and its suggestions come back.
func TestCompletionRelayed(t *testing.T) {
	asked := make(chan string, 4)
	up := server.NewMCPServer("weather", "1", server.WithPromptCapabilities(true), server.WithResourceCapabilities(false, true),
		server.WithCompletions(), server.WithPromptCompletionProvider(upCompleter{asked}), server.WithResourceCompletionProvider(upCompleter{asked}))
	up.AddPrompt(mcp.NewPrompt("forecast", mcp.WithArgument("city")), func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return mcp.NewGetPromptResult("forecast", nil), nil
	})
	up.AddResourceTemplate(mcp.NewResourceTemplate("weather://{city}/today", "today"), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return nil, nil
	})
	src := &lateSource{name: "weather", cl: inProcessUp(t, up, nil)}
	src.ready.Store(true)
	reg := router.New(router.Options{})
	reg.Add(src)
	g := New(reg, Options{Version: "test"})
	g.Refresh(t.Context())
	cl := mcptest.Connect(t, g.srv)

	for _, c := range []struct {
		ref   any
		asked string
	}{
		{mcp.PromptReference{Type: "ref/prompt", Name: "weather__forecast"}, "prompt forecast city"},
		{mcp.ResourceReference{Type: "ref/resource", URI: ExposedURI("weather", "weather://{city}/today")}, "template weather://{city}/today city"},
	} {
		req := mcp.CompleteRequest{}
		req.Params.Ref = c.ref
		req.Params.Argument = mcp.CompleteArgument{Name: "city", Value: "Ber"}
		res, err := cl.Complete(t.Context(), req)
		if err != nil {
			t.Fatalf("%v: %v", c.ref, err)
		}
		if want := []string{"Berlin", "Bern", "Bergen"}; !slices.Equal(res.Completion.Values, want) {
			t.Errorf("%v: values %v, want %v", c.ref, res.Completion.Values, want)
		}
		if got := <-asked; got != c.asked {
			t.Errorf("the server was asked %q, want %q", got, c.asked)
		}
	}
	req := mcp.CompleteRequest{}
	req.Params.Ref = mcp.PromptReference{Type: "ref/prompt", Name: "nobody__forecast"}
	if _, err := cl.Complete(t.Context(), req); err == nil {
		t.Error("a prompt nobody published was completed")
	}
}
