package gateway

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// modernCall is a tools/call line of a 2026-07-28 client that takes forms;
// extra adds params (requestState, inputResponses).
func modernCall(id int, tool, extra string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}},"name":"up__%s","arguments":{}%s}}`, id, tool, extra)
}

// answerWithin is answer that fails the test when the answer does not come
// within 20 s (a retry the gateway keeps waiting on).
func answerWithin(t *testing.T, out *bufio.Reader, id string) map[string]any {
	t.Helper()
	got := make(chan map[string]any, 1)
	go func() {
		for {
			line, err := out.ReadBytes('\n')
			if err != nil {
				got <- map[string]any{"read error": err.Error()}
				return
			}
			var m map[string]any
			if json.Unmarshal(line, &m) == nil && fmt.Sprint(m["id"]) == id {
				got <- m
				return
			}
		}
	}()
	return within(t, got, "answer to "+id)
}

// resultText is the first text of a tools/call answer's result, and
// whether it is an error result.
func resultText(m map[string]any) (string, bool) {
	res, _ := m["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) == 0 {
		return fmt.Sprint(m), false
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	isErr, _ := res["isError"].(bool)
	return text, isErr
}

// TestRelayRetries: the retry of a 2026-07-28 client's call that answers no
// waiting question, or replays the requestState with another tool's name,
// is refused at once, and the question keeps waiting: the retry that
// answers it completes the call.
func TestRelayRetries(t *testing.T) {
	g, _, _, _ := questionerGateway(t, "in-process")
	send, out, _ := rawSession(t, g)

	send(modernCall(1, "pin", ""))
	first, _ := answerWithin(t, out, "1")["result"].(map[string]any)
	state, _ := first["requestState"].(string)
	asks, _ := first["inputRequests"].(map[string]any)
	if first["resultType"] != "input_required" || state == "" || asks["q1"] == nil {
		t.Fatalf("the call's first answer = %v, want the form as input_required under q1", first)
	}
	retry := func(id int, tool, key, pin string) (string, bool) {
		send(modernCall(id, tool, fmt.Sprintf(`,"requestState":%q,"inputResponses":{%q:{"action":"accept","content":{"pin":%q}}}`, state, key, pin)))
		return resultText(answerWithin(t, out, fmt.Sprint(id)))
	}

	if text, isErr := retry(2, "prompt", "q1", "0000"); !isErr || !strings.Contains(text, "another tool") {
		t.Errorf("the state replayed with another tool = %q (error %v), want it refused", text, isErr)
	}
	if text, isErr := retry(3, "pin", "q9", "0000"); !isErr || !strings.Contains(text, "answers none of the questions waiting") || !strings.Contains(text, "q1") {
		t.Errorf("a retry answering no question = %q (error %v), want it refused at once naming q1", text, isErr)
	}
	if text, isErr := retry(4, "pin", "q1", "4321"); isErr || text != "pin: 4321" {
		t.Errorf("the retry answering the question = %q (error %v), want the call's result", text, isErr)
	}
}

// TestRelayOnTheFastPath: a 2026-07-28 client's call over stdio runs on
// the request's own goroutine: its first question answers the request and
// the call goes on, a question asked meanwhile waits for the retry, and
// the retry that answers the last one gets the call's result; the id of a
// request answered with a question is free for the client's next request
// at once; a call cancelled before it asked anything ends upstream too.
func TestRelayOnTheFastPath(t *testing.T) {
	g, started, _, gs := questionerGateway(t, "in-process")
	close(gs.get("open"))
	send, out, _ := rawSession(t, g)

	send(modernCall(1, "flood", `,"arguments":{"n":2}`)) // the later arguments win
	state := ""
	const id = 1 // every retry under the id of the request it retries
	for _, key := range []string{"q1", "q2"} {
		m := answerWithin(t, out, fmt.Sprint(id))
		res, _ := m["result"].(map[string]any)
		asks, _ := res["inputRequests"].(map[string]any)
		if res["resultType"] != "input_required" || asks[key] == nil || res["requestState"] == "" {
			t.Fatalf("answer %d = %v, want the form as input_required under %s", id, m, key)
		}
		if state != "" && res["requestState"] != state {
			t.Errorf("the second question came under requestState %v, want the call's %s", res["requestState"], state)
		}
		state, _ = res["requestState"].(string)
		if key == "q1" { // answered: its id is the client's again, while the call waits
			send(modernCall(id, "hold", `,"arguments":{"gate":"open"}`))
			if got := within(t, started, "hold call"); got != "open" {
				t.Fatalf("hold started for %q", got)
			}
			if text, isErr := resultText(answerWithin(t, out, fmt.Sprint(id))); isErr || text != "held" {
				t.Fatalf("a new call under the answered request's id = %q (error %v), want it run", text, isErr)
			}
		}
		send(modernCall(id, "flood", fmt.Sprintf(`,"requestState":%q,"inputResponses":{%q:{"action":"accept","content":{"pin":"1"}}}`, state, key)))
	}
	if text, isErr := resultText(answerWithin(t, out, fmt.Sprint(id))); isErr || text != "2 answered" {
		t.Errorf("the retry answering the last question = %q (error %v), want the call's result", text, isErr)
	}

	send(modernCall(10, "hold", `,"arguments":{"gate":"never"}`))
	if got := within(t, started, "hold call"); got != "never" {
		t.Fatalf("hold started for %q", got)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":10,"reason":"user"}}`)
	if m := answerWithin(t, out, "10"); m["result"] == nil && m["error"] == nil {
		t.Errorf("the cancelled call's answer = %v", m)
	}
}
