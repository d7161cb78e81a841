package buildinfo

// Notice is a third-party component that ships with Switchboard, as Help →
// About and the packages' copyright file list it.
type Notice struct {
	Name      string `json:"name"`
	Licence   string `json:"licence"`
	Copyright string `json:"copyright"`
	URL       string `json:"url"`
}

// Runtime is what the local model runtime (llama.cpp's llama-server, built
// by build/llama/build.sh from node-llama-cpp 3.22.1's llama.cpp) is made
// of: llama.cpp and ggml, and the code they vendor that the server links
// (checked against its symbols: cpp-httplib, nlohmann/json, mtmd's
// miniaudio, stb_image and hashes, common's subprocess.h; xxHash is
// vendored but not linked). The copyright lines are the source's own.
// build/linux/copyright says the same; a test keeps the two together.
var Runtime = []Notice{
	{Name: "llama.cpp", Licence: "MIT License", Copyright: "Copyright (c) 2023-2026 The ggml authors", URL: "https://github.com/ggml-org/llama.cpp"},
	{Name: "ggml (part of llama.cpp)", Licence: "MIT License", Copyright: "Copyright (c) 2023-2026 The ggml authors", URL: "https://github.com/ggml-org/ggml"},
	{Name: "cpp-httplib", Licence: "MIT License", Copyright: "Copyright (c) 2017 yhirose", URL: "https://github.com/yhirose/cpp-httplib"},
	{Name: "JSON for Modern C++ (nlohmann/json)", Licence: "MIT License", Copyright: "Copyright (c) 2013-2025 Niels Lohmann", URL: "https://github.com/nlohmann/json"},
	{Name: "miniaudio", Licence: "Public domain (Unlicense) or MIT No Attribution", Copyright: "Copyright 2026 David Reid", URL: "https://github.com/mackron/miniaudio"},
	{Name: "stb_image", Licence: "MIT License or public domain (Unlicense)", Copyright: "Copyright (c) 2017 Sean Barrett", URL: "https://github.com/nothings/stb"},
	{Name: "subprocess.h", Licence: "Public domain (Unlicense)", Copyright: "Neil Henning (sheredom), dedicated to the public domain", URL: "https://github.com/sheredom/subprocess.h"},
	{Name: "rotate-bits", Licence: "MIT License", Copyright: "Copyright (c) 2021 William Casarin", URL: "https://github.com/jb55/rotate-bits.h"},
	{Name: "SHA-1 in C", Licence: "Public domain", Copyright: "Steve Reid, dedicated to the public domain", URL: "https://github.com/clibs/sha1"},
	{Name: "SHA-256 (from 7-Zip)", Licence: "Public domain", Copyright: "Igor Pavlov, dedicated to the public domain", URL: "https://www.7-zip.org/sdk.html"},
}
