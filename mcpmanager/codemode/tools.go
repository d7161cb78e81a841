package codemode

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// The code mode tools' names, the same wherever they are offered (a chat,
// 'switchboard serve --code').
const (
	ListFunctionsName    = "list_functions"
	DescribeFunctionName = "describe_function"
	RunScriptName        = "run_script"
)

// ToolDef is one of code mode's three tools as a model or an MCP client
// sees it.
type ToolDef struct {
	Name        string
	Description string
	InputSchema json.RawMessage
}

// Tools are code mode's three tools over fns: list_functions (its
// description names the servers and how many functions each has),
// describe_function and run_script.
func Tools(fns []Function) []ToolDef {
	servers := map[string]int{}
	var order []string
	for _, f := range fns {
		if servers[f.Server] == 0 {
			order = append(order, f.Server)
		}
		servers[f.Server]++
	}
	var list []string
	for _, s := range order {
		list = append(list, fmt.Sprintf("%s (%d)", s, servers[s]))
	}
	return []ToolDef{
		{
			Name: ListFunctionsName,
			Description: fmt.Sprintf("List the %d functions a script can call, from these servers: %s. Each line is the function to call and what it does.",
				len(fns), strings.Join(list, ", ")),
			InputSchema: json.RawMessage(`{"type":"object","properties":{"server":{"type":"string","description":"only this server's functions"}}}`),
		},
		{
			Name:        DescribeFunctionName,
			Description: "Show the typed declaration of functions (TypeScript: their arguments, what they return, each field's description) before you call them in a script.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"functions":{"type":"array","items":{"type":"string"},"description":"functions as list_functions names them, such as tools.memory.read_graph"}},"required":["functions"]}`),
		},
		{
			Name: RunScriptName,
			Description: "Run JavaScript that calls the functions and return only what you need. The script is the body of an async function: " +
				"await each call (`const g = await tools.memory.read_graph({})`), use tools[\"my-server\"][\"get.item\"](args) for names with dashes or dots, " +
				"loop and filter in the script, console.log what helps, and `return` the result (JSON). A refused or failed call throws; catch it to go on. " +
				"There is no file system, network or timer: only the functions.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"script":{"type":"string","description":"the body of an async function; return the result"}},"required":["script"]}`),
		},
	}
}

// Answer answers a call of the code mode tool name with args as the
// model or client sent them: list_functions and describe_function are
// answered here (res), and so is a run_script without a script; for a
// script to run, res is nil and script is it. A chat and 'serve --code'
// answer alike through it.
func Answer(fns []Function, name string, args map[string]any) (res *mcp.CallToolResult, script string) {
	switch name {
	case ListFunctionsName:
		server, _ := args["server"].(string)
		return textResult(listOf(fns, server)), ""
	case DescribeFunctionName:
		var names []string
		switch v := args["functions"].(type) {
		case string: // one name, not in its array: meant the same
			names = []string{v}
		case []any:
			for _, n := range v {
				s, _ := n.(string)
				names = append(names, s)
			}
		case nil:
		default:
			return textResult(`"functions" must be an array of names, such as ["tools.memory.read_graph"].`, false), ""
		}
		return textResult(describeNamed(fns, names)), ""
	}
	script, _ = args["script"].(string)
	if strings.TrimSpace(script) == "" {
		return mcp.NewToolResultError(errNoScript), ""
	}
	return nil, script
}

// textResult is a text result, an error one unless ok.
func textResult(text string, ok bool) *mcp.CallToolResult {
	if !ok {
		return mcp.NewToolResultError(text)
	}
	return mcp.NewToolResultText(text)
}

// listOf answers list_functions: the functions of server ("" for all),
// one a line; ok is false, with the sentence to return as an error, when
// no function is from that server.
func listOf(fns []Function, server string) (text string, ok bool) {
	var pick []Function
	for _, f := range fns {
		if server == "" || f.Server == server {
			pick = append(pick, f)
		}
	}
	if len(pick) == 0 {
		return fmt.Sprintf("No functions from a server called %q. Call list_functions without a server to see them all.", server), false
	}
	return List(pick), true
}

// describeNamed answers describe_function: the declarations of the
// functions named (as list_functions names them, or server.tool, or
// server__tool), with a comment for names it does not know; ok is false,
// with the sentence to return as an error, when none is named.
func describeNamed(fns []Function, names []string) (text string, ok bool) {
	if len(names) == 0 {
		return `"functions" is required: the functions as list_functions names them, such as ["tools.memory.read_graph"].`, false
	}
	var b strings.Builder
	var unknown []string
	for _, name := range names {
		found := false
		for _, f := range fns {
			if name == f.Path() || name == f.Server+"."+f.Tool || name == f.Server+"__"+f.Tool {
				b.WriteString(Declare(f) + "\n")
				found = true
				break
			}
		}
		if !found {
			unknown = append(unknown, fmt.Sprintf("%q", name))
		}
	}
	if len(unknown) > 0 {
		fmt.Fprintf(&b, "// No function %s: call list_functions to see their names.\n", strings.Join(unknown, ", "))
	}
	return capDescribe(b.String()), true
}

// MaxDescribeBytes bounds describe_function's answer: a schema of
// thousands of fields would fill a small model's context.
var MaxDescribeBytes = 16 << 10

// capDescribe cuts text after its last whole line within
// MaxDescribeBytes, with a note saying so.
func capDescribe(text string) string {
	if len(text) <= MaxDescribeBytes {
		return text
	}
	cut := strings.LastIndexByte(text[:MaxDescribeBytes], '\n') + 1
	return text[:cut] + fmt.Sprintf("// [cut: these declarations are %d bytes; only the first %d are shown. Ask for fewer functions at a time; a function cut short takes more fields than shown.]\n", len(text), cut)
}

// errNoScript is run_script's answer to an empty script.
const errNoScript = `"script" is required: the body of an async function that calls the functions and returns the result.`

// Text is what a model reads of a script's run: what it printed, then
// what it returned or the sentence it ended with (failure). The base64
// of an image, audio or file part the script printed or returned is
// left out (see elideBinary).
func Text(r Result, failure string) string {
	var b strings.Builder
	if len(r.Logs) > 0 {
		b.WriteString("Printed:\n")
		for _, l := range r.Logs {
			b.WriteString(elideBinary(l) + "\n")
		}
	}
	if failure != "" {
		b.WriteString(failure)
		return b.String()
	}
	if len(r.Logs) > 0 {
		b.WriteString("Returned:\n")
	}
	if v := strings.TrimSpace(string(r.Value)); v == "" || v == "null" {
		// A script that only calls, or wraps itself in a function it calls
		// without returning its value, gives null: say how to give one.
		b.WriteString(noValue)
		return b.String()
	}
	b.WriteString(elideBinary(string(r.Value)))
	return b.String()
}

// noValue is what Text says for a script that returned null or nothing.
const noValue = "null (the script returned no value; to pass a result back, end it with a top-level return VALUE, for example: return await tools.server.tool({...}))"

// MinElidedBase64 is the shortest base64 Text leaves out.
var MinElidedBase64 = 512

// binaryField is the base64 of an MCP content part as JSON writes it: an
// image's or audio's "data", an embedded file's "blob".
var binaryField = regexp.MustCompile(`"(data|blob)":"([A-Za-z0-9+/]*={0,2})"`)

// elideBinary is text with each long base64 "data" or "blob" string (a
// part of a tool's result the script passed on whole) replaced by a note
// of its size: a model reads no picture in base64, and a small image is
// thousands of tokens of it. The JSON stays JSON; the images and audio
// go with the text as parts of their own (Media), and the window still
// shows the value whole (the chat's structured result).
func elideBinary(text string) string {
	if !strings.Contains(text, `"data":"`) && !strings.Contains(text, `"blob":"`) {
		return text
	}
	return binaryField.ReplaceAllStringFunc(text, func(m string) string {
		sub := binaryField.FindStringSubmatch(m)
		if len(sub[2]) < MinElidedBase64 {
			return m
		}
		if sub[1] == "blob" {
			return fmt.Sprintf(`"blob":"[base64, %d characters: left out of this text]"`, len(sub[2]))
		}
		return fmt.Sprintf(`"data":"[base64, %d characters: left out of this text; an image or audio clip follows it as an attachment]"`, len(sub[2]))
	})
}

// MaxMedia bounds the images and audio clips one script's answer carries.
var MaxMedia = 8

// Media are the images and audio clips a script printed or returned as
// the MCP parts a tool gave it ({type: "image", data, mimeType}), in the
// order they appear, at most MaxMedia: they go to the model as a direct
// call's would (a model that takes images sees them; one that does not
// reads what they are), since Text leaves their base64 out. A part whose
// data is not base64 is none.
func Media(r Result) []mcp.Content {
	var out []mcp.Content
	var walk func(v any)
	walk = func(v any) {
		if len(out) >= MaxMedia {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			if c, ok := mediaPart(x); ok {
				out = append(out, c)
				return
			}
			for _, k := range slices.Sorted(maps.Keys(x)) {
				walk(x[k])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	for _, l := range r.Logs {
		var v any
		if strings.Contains(l, `"data":"`) && json.Unmarshal([]byte(l), &v) == nil {
			walk(v)
		}
	}
	var v any
	if bytes.Contains(r.Value, []byte(`"data":"`)) && json.Unmarshal(r.Value, &v) == nil {
		walk(v)
	}
	return out
}

// mediaPart is x as an image or audio content part, when it is one.
func mediaPart(x map[string]any) (mcp.Content, bool) {
	typ, _ := x["type"].(string)
	data, _ := x["data"].(string)
	mime, _ := x["mimeType"].(string)
	if data == "" || mime == "" || (typ != "image" && typ != "audio") {
		return nil, false
	}
	if _, err := base64.StdEncoding.DecodeString(data); err != nil {
		return nil, false
	}
	if typ == "audio" {
		return mcp.NewAudioContent(data, mime), true
	}
	return mcp.NewImageContent(data, mime), true
}

// Content is a script's answer as a tool result's content: Text, then
// the images and audio it passed on (Media).
func Content(r Result, failure string) []mcp.Content {
	return append([]mcp.Content{mcp.NewTextContent(Text(r, failure))}, Media(r)...)
}
