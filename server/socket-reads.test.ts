import { createServer as createHttpServer } from "node:http";
import { connect, createServer, Socket, type AddressInfo, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { endConnectionReads, kept, readConnection, type BytesListener } from "./socket-reads.ts";

const servers: Server[] = [];
const clients: Socket[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** A server that reads every connection with `onConnection`, and its port. */
async function listening(onConnection: (socket: Socket) => void): Promise<number> {
  const server = createServer(onConnection);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return (server.address() as AddressInfo).port;
}

async function client(port: number): Promise<Socket> {
  const socket = connect(port, "127.0.0.1");
  clients.push(socket);
  await new Promise((done) => socket.once("connect", done));
  return socket;
}

/** Resolves with the next value `push` receives. */
function nextOf<T>(): { push: (value: T) => void; next: () => Promise<T> } {
  const values: T[] = [];
  const waiting: ((value: T) => void)[] = [];
  return {
    push: (value) => (waiting.length ? waiting.shift()!(value) : values.push(value)),
    next: () => (values.length ? Promise.resolve(values.shift()!) : new Promise((done) => waiting.push(done))),
  };
}

describe("readConnection", () => {
  it("reads every connection into one buffer, which the next read overwrites", async () => {
    const reads = nextOf<{ text: string; buffer: ArrayBufferLike; bytes: Buffer }>();
    const port = await listening((socket) => readConnection(socket, (bytes) => reads.push({ text: bytes.toString(), buffer: bytes.buffer, bytes })));

    const first = await client(port);
    first.write("first connection");
    const a = await reads.next();
    const second = await client(port);
    second.write("second connection");
    const b = await reads.next();

    expect(a.text).toBe("first connection");
    expect(b.text).toBe("second connection");
    expect(b.buffer).toBe(a.buffer);
    // What was not copied during the call is gone: the second read wrote over the first's bytes.
    expect(a.bytes.toString()).toBe("second connection".slice(0, a.bytes.length));
  });

  it("keeps what kept() copied after the next read", async () => {
    const reads = nextOf<Buffer>();
    const port = await listening((socket) => readConnection(socket, (bytes) => reads.push(kept(bytes))));
    const socket = await client(port);
    socket.write("GET / HTTP/1.1");
    const first = await reads.next();
    socket.write("Host: other.test");
    await reads.next();
    expect(first.toString()).toBe("GET / HTTP/1.1");
  });

  it("reads nothing while the socket is paused, and goes on when it is resumed", async () => {
    const reads = nextOf<string>();
    let server!: Socket;
    const port = await listening((socket) => {
      server = socket;
      readConnection(socket, (bytes) => reads.push(bytes.toString()));
    });
    const socket = await client(port);
    socket.write("one");
    expect(await reads.next()).toBe("one");
    server.pause();
    socket.write("two");
    const next = reads.next();
    const during = await Promise.race([next, new Promise((done) => setTimeout(() => done("nothing"), 100))]);
    expect(during).toBe("nothing");
    server.resume();
    expect(await next).toBe("two");
  });

  it("hands the rest of the connection to 'data' events, each read kept after the next", async () => {
    const reads = nextOf<Buffer>();
    const datas = nextOf<Buffer>();
    const port = await listening((socket) => {
      const listener: BytesListener = (bytes) => {
        reads.push(kept(bytes));
        socket.pause();
        endConnectionReads(socket, listener);
        socket.on("data", (data: Buffer) => datas.push(data));
        socket.resume();
      };
      readConnection(socket, listener);
    });
    const socket = await client(port);
    socket.write("read here");
    expect((await reads.next()).toString()).toBe("read here");
    socket.write("then as data");
    const first = await datas.next();
    socket.write("and more");
    const second = await datas.next();
    expect(first.toString()).toBe("then as data");
    expect(second.toString()).toBe("and more");
  });

  it("hands a connection to node:http with the request it read, and node:http answers that and the next", async () => {
    const http = createHttpServer((request, response) => response.end(`answered ${request.url}`));
    const port = await listening((socket) => {
      const listener: BytesListener = (bytes) => {
        socket.pause();
        endConnectionReads(socket, listener);
        socket.unshift(kept(bytes));
        http.emit("connection", socket);
        socket.resume();
      };
      readConnection(socket, listener);
    });
    const socket = await client(port);
    const answers = nextOf<string>();
    let received = "";
    socket.on("data", (data: Buffer) => {
      received += data.toString();
      const bodies = received.match(/answered \/\w+/g) ?? [];
      if (bodies.length) {
        received = "";
        for (const body of bodies) answers.push(body);
      }
    });
    socket.write("GET /first HTTP/1.1\r\nHost: a.test\r\n\r\n");
    expect(await answers.next()).toBe("answered /first");
    socket.write("GET /second HTTP/1.1\r\nHost: a.test\r\n\r\n");
    expect(await answers.next()).toBe("answered /second");
  });

  it("listens to 'data' events on a socket that has no handle of its own", () => {
    const socket = new Socket();
    const heard: string[] = [];
    const listener: BytesListener = (bytes) => heard.push(bytes.toString());
    readConnection(socket, listener);
    socket.emit("data", Buffer.from("through data"));
    endConnectionReads(socket, listener);
    socket.emit("data", Buffer.from("not heard"));
    expect(heard).toEqual(["through data"]);
    socket.destroy();
  });
});
