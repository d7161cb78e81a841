#!/usr/bin/env node
// A stdio MCP server with no dependencies for the bundle tests: its one
// tool, show, returns the ECHO_* environment and the arguments it got.
const readline = require('readline');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let m;
  try { m = JSON.parse(line); } catch { return; }
  if (m.id === undefined) return;
  const reply = (result) => send({ jsonrpc: '2.0', id: m.id, result });
  switch (m.method) {
    case 'initialize':
      reply({ protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'echo-env', version: '1.2.0' } });
      break;
    case 'tools/list':
      reply({ tools: [{ name: 'show', description: 'Shows the environment and arguments', inputSchema: { type: 'object', properties: {} } }] });
      break;
    case 'tools/call': {
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('ECHO_')));
      reply({ content: [{ type: 'text', text: JSON.stringify({ env, args: process.argv.slice(2) }) }] });
      break;
    }
    case 'ping':
      reply({});
      break;
    default:
      send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'method not found' } });
  }
});
