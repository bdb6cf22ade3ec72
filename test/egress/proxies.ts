// Real proxy servers on this machine, for the egress tests and the demo: an HTTP or HTTPS proxy
// (proxy-chain) and a SOCKS5 proxy (@pondwader/socks5-server), each with a user and password, whose
// outgoing connections leave from a loopback address of their own (127.0.0.2 "datacenter",
// 127.0.0.3 "residential") so the retailer stand-in can wall some addresses and serve others, as
// the real sites wall datacenter addresses. Also the proxies that fail: one that refuses the
// connection and one that accepts it and never answers. The HTTPS proxy's certificate
// (proxy-test.crt, for 127.0.0.1, valid until 2126) is a self-signed one made for these tests.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer as createSocksServer } from '@pondwader/socks5-server';
import { Server as ProxyChainServer } from 'proxy-chain';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The loopback address each kind of proxy's traffic leaves from. */
export const EGRESS_ADDRESSES = { direct: '127.0.0.1', datacenter: '127.0.0.2', residential: '127.0.0.3' } as const;

export interface TestProxy {
  /** The proxy URL with its credentials, as an operator writes it in .env. */
  url: string;
  /** host:port, as the app must show it. */
  label: string;
  port: number;
  /** Requests (CONNECTs and forwarded requests) it carried to a target. */
  carried: number;
  /** Attempts it turned away for their credentials. */
  refusedCredentials: number;
  close(): Promise<void>;
}

export interface ProxyOptions {
  username: string;
  password: string;
  /** The loopback address its outgoing connections leave from. */
  egressAddress: string;
  kind?: 'http' | 'https' | 'socks5';
}

const credentials = (username: string, password: string) =>
  `${encodeURIComponent(username)}:${encodeURIComponent(password)}@`;

export async function startProxy(options: ProxyOptions): Promise<TestProxy> {
  return options.kind === 'socks5' ? startSocks(options) : startHttpProxy(options);
}

async function startHttpProxy({ username, password, egressAddress, kind = 'http' }: ProxyOptions): Promise<TestProxy> {
  const proxy: Omit<TestProxy, 'url' | 'label' | 'port' | 'close'> = { carried: 0, refusedCredentials: 0 };
  const secure = kind === 'https';
  const prepareRequestFunction = ({ username: user, password: pass }: { username: string; password: string }) => {
    if (user !== username || pass !== password) {
      proxy.refusedCredentials++;
      return { requestAuthentication: true, failMsg: 'Proxy credentials required' };
    }
    proxy.carried++;
    return { localAddress: egressAddress };
  };
  const server = secure
    ? new ProxyChainServer({
        port: 0,
        host: '127.0.0.1',
        serverType: 'https',
        httpsOptions: {
          key: fs.readFileSync(path.join(HERE, 'proxy-test.key')),
          cert: fs.readFileSync(path.join(HERE, 'proxy-test.crt')),
        },
        prepareRequestFunction,
      })
    : new ProxyChainServer({ port: 0, host: '127.0.0.1', prepareRequestFunction });
  // (a client that goes away mid-request is part of these tests, not a failure of the proxy)
  server.on('requestFailed', () => {});
  await server.listen();
  const port = server.port;
  return Object.assign(proxy, {
    url: `${kind}://${credentials(username, password)}127.0.0.1:${port}`,
    label: `127.0.0.1:${port}`,
    port,
    close: () => server.close(true),
  });
}

async function startSocks({ username, password, egressAddress }: ProxyOptions): Promise<TestProxy> {
  const proxy: Omit<TestProxy, 'url' | 'label' | 'port' | 'close'> = { carried: 0, refusedCredentials: 0 };
  const server = createSocksServer();
  server.setAuthHandler((conn) => {
    const ok = conn.username === username && conn.password === password;
    if (!ok) proxy.refusedCredentials++;
    return ok;
  });
  server.setConnectionHandler((conn, sendStatus) => {
    proxy.carried++;
    const out = net.connect({ host: conn.destAddress, port: conn.destPort, localAddress: egressAddress });
    out.once('connect', () => {
      sendStatus('REQUEST_GRANTED');
      conn.socket.pipe(out).pipe(conn.socket);
    });
    out.once('error', () => {
      sendStatus('CONNECTION_REFUSED');
      conn.socket.destroy();
    });
    conn.socket.once('error', () => out.destroy());
    conn.socket.once('close', () => out.destroy());
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return Object.assign(proxy, {
    url: `socks5://${credentials(username, password)}127.0.0.1:${port}`,
    label: `127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** A proxy address where nothing listens: every connection is refused. */
export async function refusingProxy(
  username = 'user',
  password = 'refused-pass',
): Promise<{ url: string; label: string }> {
  const port = await freePort();
  return { url: `http://${credentials(username, password)}127.0.0.1:${port}`, label: `127.0.0.1:${port}` };
}

/** A proxy that accepts connections and never answers: a request through it waits for its timeout. */
export async function hangingProxy(
  username = 'user',
  password = 'hanging-pass',
): Promise<{ url: string; label: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://${credentials(username, password)}127.0.0.1:${port}`,
    label: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Whether connections can leave from the proxies' loopback addresses (Linux answers on all of
 * 127.0.0.0/8; other systems need an alias for each).
 */
export async function egressAddressesWork(): Promise<boolean> {
  const server = net.createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  try {
    for (const address of [EGRESS_ADDRESSES.datacenter, EGRESS_ADDRESSES.residential]) {
      await new Promise<void>((resolve, reject) => {
        const socket = net.connect({ host: '127.0.0.1', port, localAddress: address });
        socket.once('connect', () => {
          socket.destroy();
          resolve();
        });
        socket.once('error', reject);
      });
    }
    return true;
  } catch {
    return false;
  } finally {
    server.close();
  }
}
