// The methods Go binds, as Wails generates them (../../wailsjs/go/app): one
// re-export per bound struct, so a binding the Go side adds or renames shows
// up here (or fails to compile where it is used) without a hand-kept list.
// Each generated function looks window.go up when called, so unit tests
// that set window.go still stand in for the backend.
export * from '../../wailsjs/go/app/AgentsPage';
export * from '../../wailsjs/go/app/App';
export * from '../../wailsjs/go/app/Bundles';
export * from '../../wailsjs/go/app/ChatPage';
export * from '../../wailsjs/go/app/Content';
export * from '../../wailsjs/go/app/MCPRegistry';
export * from '../../wailsjs/go/app/Safety';
export * from '../../wailsjs/go/app/Sandbox';
export * from '../../wailsjs/go/app/ServersPage';
export * from '../../wailsjs/go/app/SettingsPage';
export * from '../../wailsjs/go/app/ToolsPage';
export * from '../../wailsjs/go/app/WelcomePage';
export * from '../../wailsjs/go/app/WorkspacePage';

// Apps binds CallTool and ReadResource too: an MCP App's own calls
// (to its server, under the chat's policy) get names of their own, so the
// plain ones stay the tools page's and the content page's.
export {
  CallTool as CallAppTool,
  DescribeDownload as DescribeAppDownload,
  Log as AppLog,
  OpenApp,
  OpenLink as OpenAppLink,
  ReadResource as ReadAppResource,
  Sample as AppSample,
  SaveDownload as SaveAppDownload,
  SetModelContext,
  ToolApp,
} from '../../wailsjs/go/app/Apps';
