// Command testserver is every MCP server the tests start that no npm
// package provides: servers that misbehave on purpose and servers of
// features the pinned ones lack. One program, so one build serves every
// test; -mode picks the behaviour, or, without -mode, the name the program
// runs under does (proctest builds it once and links it under a mode's
// name, so a config whose "command" is that path alone starts that server,
// as a real server's command does; any other name is mode ok).
//
//	go build -o /tmp/rugpull ./mcpmanager/testdata/testserver   # /tmp/rugpull is mode rugpull
//	testserver -mode hang-init
//
// The modes, what each misbehaves at or offers, and the file that has it:
//
//	ok            a well-behaved stdio server: echo, sleep, crash, big,
//	              progress, getenv and environ tools (faults.go); -name sets
//	              its serverInfo name
//	hang-init     never answers initialize (faults.go)
//	garbage       writes non-JSON lines to stdout, then behaves (faults.go)
//	stderr-flood  writes megabytes to stderr while serving (faults.go)
//	exit-init     exits with status 3 before initialize (faults.go)
//	ignore-stdin  keeps running when stdin closes, ignores SIGTERM (faults.go)
//	wait-file     answers nothing until the file -file names exists (faults.go)
//	strict-init   exits with status 2 when its first message is not
//	              initialize, as a server that dies on server/discover (faults.go)
//	huge-line     writes -bytes of one JSON line before answering anything,
//	              then hangs (hostile.go)
//	huge-result   answers tools/call with one line of -bytes (hostile.go)
//	partial       writes the first -bytes of a response, never ends it (hostile.go)
//	slow-result   answers tools/call with a result it never ends (hostile.go)
//	rugpull       changes its weather tool's description into a poisoned
//	              one after the first call; -state FILE remembers it (rugpull.go)
//	canary        probe: tries what a sandbox must stop and says how each
//	              attempt went (canary.go)
//	audioserver   get-tone: a WAV tone as audio content (audioserver.go)
//	samplerserver sample_loop: asks the client's model again and again
//	              during a call (samplerserver.go)
//	askserver     asks a question during its call, or after it returned,
//	              with files as gates (askserver.go)
//	envsrv        says every SEKRIT value of its environment, and its
//	              arguments, in its stderr, instructions, descriptions,
//	              results, an error, a 5 MB result and a log (envsrv.go)
//	urlserver     URL-mode elicitation, the -32042 error and sampling with
//	              tools, hand-written protocol 2025-11-25 (urlserver.go)
//	modernserver  speaks revision 2026-07-28 only: no initialize,
//	              input_required results, tasks, skills; -http ADDR serves
//	              Streamable HTTP, -corrupt-skill a tampered SKILL.md,
//	              -fail-skills an error for every skills/list
//	              (modernserver.go, modernserver_skills.go, modernserver_tasks.go)
//	contentserver what servers show besides text: icons, a resource link,
//	              structured output matching its schema and not (contentserver.go)
//	rootsserver   says which roots its client offered it, hand-written
//	              JSON-RPC (rootsserver.go)
//	hostileapp    an MCP App that tries to break out of its sandbox: the
//	              window's bindings, parent and top, fetches outside its
//	              CSP, file: links, a tool hidden from apps (hostileapp.go)
//	extapp        an MCP App using ext-apps 2.x's 2026 requests (display
//	              modes, downloads, sampling, teardown) through the SDK
//	              bundle its first argument names (extapp.go)
//	setsid        not MCP: leaves its process group and session behind
//	              (a descendant under setsid that ignores SIGTERM); its
//	              first argument, stdin, stubborn or daemon, says how it
//	              then stops (setsid.go)
//	npm-registry  not MCP: fetchtest's npm registry over HTTP, printing
//	              NPM_REGISTRY_URL; -addr, -delay (npmregistry.go)
//	mcp-registry  not MCP: mcpregistrytest's MCP Registry over HTTP, printing
//	              REGISTRY_URL; -fillers, -hostile, -examples (mcpregistry.go)
//
// Who starts which: mcpmanager/proctest (FaultServer, Server) for the
// tests of every package, the e2e tests (frontend/e2e/tests, which run it
// with -mode or under a mode's name) and the conformance script
// (mcpmanager/testdata/conformance/run.sh: modernserver behind 'serve').
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The flags of every mode, in one set: the modes that read one are named.
var (
	mode            = flag.String("mode", "", "the behaviour (see the package doc); default: the program's name when it is a mode, else ok")
	faultName       = flag.String("name", "faultserver", "fault modes: the serverInfo name")
	waitFile        = flag.String("file", "", "wait-file: the file to wait for")
	hostileBytes    = flag.Int("bytes", 32<<20, "huge-line, huge-result, partial, slow-result: bytes of the oversized or unfinished message")
	rugPullState    = flag.String("state", "", "rugpull: file that remembers the change across restarts")
	listenAddr      = flag.String("addr", "127.0.0.1:0", "npm-registry: listen address (loopback)")
	npmDelay        = flag.Duration("delay", 0, "npm-registry: hold back every tarball download this long")
	registryFillers = flag.Int("fillers", 40, "mcp-registry: filler servers after the examples (more pages)")
	modernHTTP      = flag.String("http", "", "modernserver: serve Streamable HTTP on this address instead of stdio")
	registryHostile = flag.Bool("hostile", false, "mcp-registry: also serve io.github.evil/grab, whose header reads ${secret:OTHER} (Add must refuse it)")
)

func init() {
	flag.BoolVar(&corruptSkill, "corrupt-skill", false, "modernserver: serve the haiku skill's SKILL.md with other content than its listing's digest and size")
	flag.BoolVar(&failSkills, "fail-skills", false, "modernserver: declare the skills extension but answer every skills/list with an error")
}

// modes maps each mode to the function that serves it; the fault and
// hostile functions read *mode again to pick their fault.
var modes = map[string]func(){
	"ok": serveFaults, "hang-init": serveFaults, "garbage": serveFaults, "stderr-flood": serveFaults,
	"exit-init": serveFaults, "ignore-stdin": serveFaults, "wait-file": serveFaults, "strict-init": serveFaults,
	"huge-line": serveHostile, "huge-result": serveHostile, "partial": serveHostile, "slow-result": serveHostile,
	"rugpull":       serveRugPull,
	"canary":        serveCanary,
	"audioserver":   serveAudio,
	"samplerserver": serveSampler,
	"askserver":     serveAskServer,
	"setsid":        serveSetsid,
	"envsrv":        serveEnvSrv,
	"urlserver":     serveURLServer,
	"modernserver":  serveModernServer,
	"contentserver": serveContentServer,
	"rootsserver":   serveRootsServer,
	"hostileapp":    serveHostileApp,
	"extapp":        serveExtApp,
	"npm-registry":  serveNPMRegistry,
	"mcp-registry":  serveMCPRegistry,
}

func main() {
	flag.Parse()
	if *mode == "" {
		*mode = "ok"
		if name := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe"); modes[name] != nil {
			*mode = name
		}
	}
	serve := modes[*mode]
	if serve == nil {
		fmt.Fprintf(os.Stderr, "testserver: no mode %q\n", *mode)
		os.Exit(2)
	}
	serve()
}
