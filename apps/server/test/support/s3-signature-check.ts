import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';

/**
 * s3rver 3.7.1 checks that an access key exists but not the request's Signature Version 4 (its
 * source: "Signature version 4 calculation is unimplemeneted"), and the AWS SDK v3 signs with
 * nothing else; so a wrong secret key would pass. This loopback front checks each signed request
 * as S3 does (AWS's SigV4 specification: canonical request, string to sign, derived key) against
 * the secret of its access key, answers S3's own `SignatureDoesNotMatch` error when they differ,
 * and passes every other request to the real s3rver behind it untouched.
 */

const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const decode = (text: string) => decodeURIComponent(text.replace(/\+/g, '%20'));

function canonicalQuery(query: string): string {
  if (!query) return '';
  return query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      const name = at < 0 ? pair : pair.slice(0, at);
      const value = at < 0 ? '' : pair.slice(at + 1);
      return [encode(decode(name)), encode(decode(value))] as const;
    })
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

/** Whether the request's SigV4 signature is the one `secret` gives; undefined when it is not SigV4-signed by a key we know. */
function signatureMatches(request: http.IncomingMessage, secrets: Map<string, string>): boolean | undefined {
  const authorization = request.headers.authorization ?? '';
  const parsed =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!parsed) return undefined;
  const [, accessKeyId, day, region, service, signedHeaders, signature] = parsed;
  const secret = secrets.get(accessKeyId!);
  if (secret === undefined) return undefined; // s3rver answers InvalidAccessKeyId itself
  const [rawPath = '/', rawQuery = ''] = (request.url ?? '/').split('?', 2) as [string, string?];
  const headerLines = signedHeaders!.split(';').map((name) => {
    const value = request.headers[name];
    const text = Array.isArray(value) ? value.join(',') : (value ?? '');
    return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
  });
  const canonicalRequest = [
    request.method,
    rawPath,
    canonicalQuery(rawQuery),
    headerLines.join(''),
    signedHeaders,
    String(request.headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD'),
  ].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    String(request.headers['x-amz-date']),
    scope,
    createHash('sha256').update(canonicalRequest, 'utf8').digest('hex'),
  ].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day!), region!), service!), 'aws4_request');
  return hmac(key, stringToSign).toString('hex') === signature;
}

export interface SignatureCheck {
  port: number;
  /** Requests this front refused for a signature that did not match. */
  refused: number;
  /** Requests it checked and passed on. */
  passed: number;
  close(): Promise<void>;
}

export async function startSignatureCheck(upstreamPort: number, secrets: Map<string, string>): Promise<SignatureCheck> {
  const counts = { refused: 0, passed: 0 };
  const sockets = new Set<net.Socket>();
  const server = http.createServer((request, response) => {
    if (signatureMatches(request, secrets) === false) {
      counts.refused += 1;
      request.resume();
      response.writeHead(403, { 'content-type': 'application/xml' });
      response.end(
        request.method === 'HEAD'
          ? undefined
          : '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the signature you provided. Check your key and signing method.</Message></Error>',
      );
      return;
    }
    counts.passed += 1;
    const upstream = http.request(
      { host: '127.0.0.1', port: upstreamPort, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.once('error', () => response.destroy());
    request.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get refused() {
      return counts.refused;
    },
    get passed() {
      return counts.passed;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
