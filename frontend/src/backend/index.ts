// The backend module: the one way into the Go side. Everything else in
// src/ imports the bindings, the generated types, Go's events (with
// ../events.gen.ts, which go generate writes beside this folder) and the
// Wails runtime from here, never from ../wailsjs (imports.test.ts and the
// Go test layout_frontend_test.go check that), so a change of the generated
// code is met in this folder only.
export { DEV_INFO, appInfo, call, hasBackend, hasMethod, hasRuntime, signalReady, versionLabel, type AppInfo } from './connection';
export * from './bindings';
export { on } from './events';
export * from '../events.gen';
export { openURL, setWindowTitle } from './runtime';
export type { buildinfo, gui, host } from '../../wailsjs/go/models';
