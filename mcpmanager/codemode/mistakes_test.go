package codemode_test

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
)

// TestCommonMistakesSayWhatToWrite: the mistakes models make in scripts
// end with the line and what to write instead, not with the engine's
// words alone; a script wrapped in a Markdown fence runs, its lines
// counted as written; a call not awaited that fails ends the script (as
// in Node) instead of passing unseen.
func TestCommonMistakesSayWhatToWrite(t *testing.T) {
	mistakes := append([]codemode.Function{{Server: "everything", Tool: "get-tiny-image"}}, fns...)
	cases := []struct {
		name, script string
		lim          codemode.Limits
		value        string // the value, when the script succeeds
		want         string // the error, when it fails
	}{
		{name: "a script in a Markdown fence", script: "```javascript\nconst r = await tools.memory.add({a: 1, b: 2});\nreturn r.sum;\n```\n", value: "3"},
		{name: "a fenced script's line", script: "```js\nconst a = 1;\nthrow new Error(\"at three\");\n```", want: "The script failed at line 3: uncaught Error: at three"},
		{name: "a server that does not exist", script: "const a = 1;\nconst r = await tools.fs.read({path: \"a.txt\"});",
			want: `The script failed at line 2: uncaught TypeError: Cannot read property 'read' of undefined or null (there is no server "fs": the servers are tools.everything, tools.memory, tools["my-server"] (list_functions lists their functions))`},
		{name: "a dashed name written with dots", script: `return await tools.everything.get-tiny-image({});`,
			want: `The script failed at line 1: uncaught ReferenceError: tiny is not defined (a name with a dash takes brackets: write tools.everything["get-tiny-image"](…), not tools.everything.get-tiny-image(…))`},
		{name: "a call's promise used without await", script: "const r = tools.memory.add({a: 1, b: 2});\nreturn r.sum.toFixed(1);",
			want: "The script failed at line 2: uncaught TypeError: Cannot read property 'toFixed' of undefined or null (line 1 keeps tools.memory.add(…) in r without await: a call gives a promise, so write r = await tools.memory.add(…))"},
		{name: "a failing call not awaited", script: "const a = 1;\ntools.memory.fail({});\nreturn \"written\";",
			want: "The script failed at line 2: a promise the script did not await was rejected: Error: the user denied this tool call (await each call, or catch its error, so the script sees it fail)"},
		{name: "a failing call awaited later", script: "const p = tools.memory.fail({});\nlet m = \"\";\ntry { await p; } catch (e) { m = e.message; }\nreturn m;", value: `"the user denied this tool call"`},
		{name: "a failing call caught with .catch", script: "tools.memory.fail({}).catch(() => {});\nreturn 1;", value: "1"},
		{name: "a syntax error's place", script: "const g = 1;\nconst n = [g].filter(e => e ==== 1);",
			want: "The script failed at line 2: syntax error: Unexpected token = (and 4 more errors) (column 32)"},
		{name: "a syntax error on the first line", script: "const a = 1 +* 2;",
			want: "The script failed at line 1: syntax error: Unexpected token * (and 2 more errors) (column 14)"},
		{name: "an endless loop's line", script: "let i = 0;\nwhile (true) { i++; }", lim: codemode.Limits{CPUSeconds: 1},
			want: "The script was stopped: it computed for longer than its CPU time limit of 1 s (setting settings.chat.codeMode.cpuSeconds). It was running line 2."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := codemode.Run(t.Context(), c.script, mistakes, c.lim, calls(t, nil), nil)
			if c.want == "" {
				if err != nil || string(res.Value) != c.value {
					t.Fatalf("= %s, %v; want %s", res.Value, err, c.value)
				}
				return
			}
			if err == nil || err.Error() != c.want {
				t.Fatalf("error = %v\nwant    %s", err, c.want)
			}
		})
	}
}

// TestImagesAScriptPassesOnGoAsParts: the base64 of an image part a
// script returns or prints is left out of the text a model reads (a tiny
// PNG is 5,000 characters of it) and the image goes as a part of its own;
// short data, a blob, and a part whose data is not base64 stay text.
func TestImagesAScriptPassesOnGoAsParts(t *testing.T) {
	png := strings.Repeat("iVBORw0KGgo", 100) + "AA=="
	img := `{"type":"image","data":"` + png + `","mimeType":"image/png"}`
	cases := []struct {
		name       string
		res        codemode.Result
		wantText   []string // in the text
		unwanted   string   // not in the text
		wantImages int
	}{
		{"returned", codemode.Result{Value: []byte(`{"parts":[{"type":"text","text":"Here's the image"},` + img + `]}`)},
			[]string{`"data":"[base64, 1104 characters: left out of this text; an image or audio clip follows it as an attachment]"`, "Here's the image"}, png, 1},
		{"printed", codemode.Result{Logs: []string{img}, Value: []byte(`"ok"`)}, []string{"Printed:\n{\"type\":\"image\",\"data\":\"[base64, 1104", "Returned:\n\"ok\""}, png, 1},
		{"a file's blob", codemode.Result{Value: []byte(`{"resource":{"uri":"file:///a.bin","blob":"` + png + `"}}`)}, []string{`"blob":"[base64, 1104 characters: left out of this text]"`}, png, 0},
		{"short data", codemode.Result{Value: []byte(`{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}`)}, []string{"iVBORw0KGgo="}, "left out", 1},
		{"not base64", codemode.Result{Value: []byte(`{"type":"image","data":"not base64 at all","mimeType":"image/png"}`)}, []string{"not base64 at all"}, "left out", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			content := codemode.Content(c.res, "")
			text := content[0].(mcp.TextContent).Text
			for _, w := range c.wantText {
				if !strings.Contains(text, w) {
					t.Errorf("text %q\nlacks %q", text, w)
				}
			}
			if strings.Contains(text, c.unwanted) {
				t.Errorf("text %q holds %q", text, c.unwanted)
			}
			if got := len(content) - 1; got != c.wantImages {
				t.Fatalf("%d parts after the text, want %d", got, c.wantImages)
			}
			if c.wantImages > 0 {
				if im, ok := content[1].(mcp.ImageContent); !ok || im.MIMEType != "image/png" {
					t.Errorf("part %+v, want the image/png", content[1])
				}
			}
		})
	}
}
