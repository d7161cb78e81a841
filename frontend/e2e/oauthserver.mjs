// A fake OAuth-protected MCP server for the login e2e tests: one tool
// (whoami) behind a token from its own authorization server, which checks
// PKCE (S256) and the resource parameter.
import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';

/**
 * protectedServer starts it on 127.0.0.1 and resolves to { server, base }.
 * name: its serverInfo name. client: { id, secret } for an authorization
 * server without dynamic registration, where only that client, over Basic,
 * gets a token; none: dynamic registration and public clients. iss: its
 * redirects carry RFC 9207 "iss", and its metadata says so. scope: the
 * token's scope, if any.
 */
export function protectedServer({ name, client, iss = false, scope } = {}) {
  let challenge = '';
  let token = '';
  const srv = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const b = `http://127.0.0.1:${srv.address().port}`;
      const url = new URL(req.url, b);
      const json = (code, v, headers = {}) => {
        res.writeHead(code, { 'Content-Type': 'application/json', ...headers });
        res.end(JSON.stringify(v));
      };
      switch (`${req.method} ${url.pathname}`) {
        case 'GET /.well-known/oauth-protected-resource/mcp':
          return json(200, { resource: `${b}/mcp`, authorization_servers: [b] });
        case 'GET /.well-known/oauth-authorization-server':
          return json(200, {
            issuer: b, authorization_endpoint: `${b}/authorize`, token_endpoint: `${b}/token`,
            ...(client ? {} : { registration_endpoint: `${b}/register` }),
            response_types_supported: ['code'], code_challenge_methods_supported: ['S256'],
            token_endpoint_auth_methods_supported: [client ? 'client_secret_basic' : 'none'],
            ...(iss ? { authorization_response_iss_parameter_supported: true } : {}),
          });
        case 'POST /register':
          if (client) break;
          return json(201, { client_id: 'e2e-client', redirect_uris: JSON.parse(body).redirect_uris });
        case 'GET /authorize': {
          if (client && url.searchParams.get('client_id') !== client.id) return json(400, { error: 'invalid_client' });
          challenge = url.searchParams.get('code_challenge');
          const back = new URL(url.searchParams.get('redirect_uri'));
          back.searchParams.set('code', 'e2e-code');
          back.searchParams.set('state', url.searchParams.get('state'));
          if (iss) back.searchParams.set('iss', b);
          res.writeHead(302, { Location: back.toString() });
          return res.end();
        }
        case 'POST /token': {
          const f = new URLSearchParams(body);
          const sum = createHash('sha256').update(f.get('code_verifier') ?? '').digest('base64url');
          if (client && req.headers.authorization !== `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`) {
            return json(401, { error: 'invalid_client' });
          }
          if (f.get('code') !== 'e2e-code' || sum !== challenge || f.get('resource') !== `${b}/mcp`) {
            return json(400, { error: 'invalid_grant' });
          }
          token = `e2e-token-${randomBytes(8).toString('hex')}`;
          return json(200, { access_token: token, token_type: 'Bearer', expires_in: 3600, ...(scope ? { scope } : {}) });
        }
        case 'POST /mcp':
        case 'GET /mcp': {
          if (!token || req.headers.authorization !== `Bearer ${token}`) {
            return json(401, { error: 'invalid_token' }, {
              'WWW-Authenticate': `Bearer resource_metadata="${b}/.well-known/oauth-protected-resource/mcp"`,
            });
          }
          if (req.method === 'GET') {
            res.writeHead(405);
            return res.end();
          }
          const msg = JSON.parse(body);
          if (msg.id === undefined) {
            res.writeHead(202);
            return res.end();
          }
          const results = {
            initialize: { protocolVersion: msg.params?.protocolVersion ?? '2025-11-25', capabilities: { tools: {} }, serverInfo: { name, version: '1.0.0' } },
            'tools/list': { tools: [{ name: 'whoami', description: 'Says who is logged in', inputSchema: { type: 'object' } }] },
            ping: {},
          };
          if (!(msg.method in results)) {
            return json(200, { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `no method ${msg.method}` } });
          }
          return json(200, { jsonrpc: '2.0', id: msg.id, result: results[msg.method] });
        }
      }
      res.writeHead(404);
      return res.end();
    });
  });
  return new Promise((resolve) => {
    srv.listen(0, '127.0.0.1', () => resolve({ server: srv, base: `http://127.0.0.1:${srv.address().port}` }));
  });
}
