#!/usr/bin/env node
// A stdio MCP server with no dependencies, published by fetchtest's local
// npm registry so that "npx -y" has something real to download.
const readline = require('readline');
const name = require('./package.json').name;
const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let m;
  try { m = JSON.parse(line); } catch { return; }
  if (m.id === undefined) return;
  const reply = (result) => send({ jsonrpc: '2.0', id: m.id, result });
  switch (m.method) {
    case 'initialize':
      reply({ protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name, version: '1.0.0' } });
      break;
    case 'tools/list':
      reply({ tools: [{ name: 'hello', description: 'Says hello', inputSchema: { type: 'object', properties: {} } }] });
      break;
    case 'tools/call':
      reply({ content: [{ type: 'text', text: 'hello from ' + name } ] });
      break;
    case 'ping':
      reply({});
      break;
    default:
      send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'method not found' } });
  }
});
