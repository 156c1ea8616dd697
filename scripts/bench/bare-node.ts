/**
 * The reference for `npm run bench`: a bare node:http server that answers every request with one
 * fixed response (status, headers and body read from the file named by argv[2]) on port argv[3].
 * What a Node process can do at best on this machine, with no framework and no lookup at all.
 */
import { createServer } from "node:http";
import { readFileSync } from "node:fs";

const { headers, body } = JSON.parse(readFileSync(process.argv[2], "utf8")) as {
  headers: [string, string][];
  body: string;
};
const bytes = Buffer.from(body, "base64");
const flat = headers.flat();
createServer((_req, res) => {
  res.writeHead(200, flat);
  res.end(bytes);
}).listen(Number(process.argv[3]), "127.0.0.1");
