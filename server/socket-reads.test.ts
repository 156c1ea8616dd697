import { createServer as createHttpServer } from "node:http";
import { connect, createServer, Socket, type AddressInfo, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../tests/helpers/wait.ts";
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

/** Writes `text` and waits until `seen` holds one more entry than before. */
async function send(socket: Socket, text: string, seen: unknown[]): Promise<void> {
  const before = seen.length;
  socket.write(text);
  await waitFor(() => seen.length > before);
}

describe("readConnection", () => {
  it("reads every connection into one buffer, which the next read overwrites", async () => {
    const reads: { text: string; bytes: Buffer }[] = [];
    const port = await listening((socket) => readConnection(socket, (bytes) => reads.push({ text: bytes.toString(), bytes })));

    await send(await client(port), "first connection", reads);
    await send(await client(port), "second connection", reads);

    const [a, b] = reads;
    expect(a.text).toBe("first connection");
    expect(b.text).toBe("second connection");
    expect(b.bytes.buffer).toBe(a.bytes.buffer);
    // What was not copied during the call is gone: the second read wrote over the first's bytes.
    expect(a.bytes.toString()).toBe("second connection".slice(0, a.bytes.length));
  });

  it("keeps what kept() copied after the next read", async () => {
    const reads: Buffer[] = [];
    const port = await listening((socket) => readConnection(socket, (bytes) => reads.push(kept(bytes))));
    const socket = await client(port);
    await send(socket, "GET / HTTP/1.1", reads);
    await send(socket, "Host: other.test", reads);
    expect(reads.map(String)).toEqual(["GET / HTTP/1.1", "Host: other.test"]);
  });

  it("reads nothing while the socket is paused, and goes on when it is resumed", async () => {
    const reads: string[] = [];
    let server!: Socket;
    const port = await listening((socket) => {
      server = socket;
      readConnection(socket, (bytes) => reads.push(bytes.toString()));
    });
    const socket = await client(port);
    await send(socket, "one", reads);
    server.pause();
    socket.write("two");
    await new Promise((done) => setTimeout(done, 100));
    expect(reads).toEqual(["one"]);
    server.resume();
    await waitFor(() => reads.length === 2);
    expect(reads).toEqual(["one", "two"]);
  });

  it("hands the rest of the connection to 'data' events, each read kept after the next", async () => {
    const reads: string[] = [];
    const datas: Buffer[] = [];
    const port = await listening((socket) => {
      const listener: BytesListener = (bytes) => {
        reads.push(bytes.toString());
        socket.pause();
        endConnectionReads(socket, listener);
        socket.on("data", (data: Buffer) => datas.push(data));
        socket.resume();
      };
      readConnection(socket, listener);
    });
    const socket = await client(port);
    await send(socket, "read here", reads);
    await send(socket, "then as data", datas);
    await send(socket, "and more", datas);
    expect(reads).toEqual(["read here"]);
    expect(datas.map(String)).toEqual(["then as data", "and more"]);
  });

  it("hands a connection to node:http with the request it read, and node:http answers that and the next", async () => {
    const http = createHttpServer((request, response) => response.end(`answered ${request.url};`));
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
    let received = "";
    socket.on("data", (data: Buffer) => (received += data.toString()));
    const answers = () => received.match(/answered \/\w+;/g) ?? [];
    socket.write("GET /first HTTP/1.1\r\nHost: a.test\r\n\r\n");
    await waitFor(() => answers().length === 1);
    socket.write("GET /second HTTP/1.1\r\nHost: a.test\r\n\r\n");
    await waitFor(() => answers().length === 2);
    expect(answers()).toEqual(["answered /first;", "answered /second;"]);
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
