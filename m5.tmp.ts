import { performance } from "node:perf_hooks";
import { sheetBomb, workbook, objectStreamBomb, doubleDeflateBomb, manyPages, manyObjects } from "./tests/helpers/bombs.ts";
import { readQuestionFile } from "./server/services/mock-tests/question-files.ts";
import { checkPdfStreams } from "./server/parsing/pdf-check.ts";
import { PDF_LIMITS, stampPdf } from "./server/services/pdf-watermark.ts";
let s = performance.now();
const part = await sheetBomb(1024);
const book = workbook(part);
console.log("bomb gen ms", Math.round(performance.now() - s), "xlsx bytes", book.length, "rss", process.memoryUsage().rss >> 20);
s = performance.now();
console.log(JSON.stringify(await readQuestionFile("xlsx", book)), Math.round(performance.now() - s));
const lying = workbook({ ...part, declare: { central: 4096, local: 4096 } });
s = performance.now();
console.log(JSON.stringify(await readQuestionFile("xlsx", lying)), Math.round(performance.now() - s));
for (const [name, pdf] of [["objstm", objectStreamBomb(256)], ["ref", objectStreamBomb(256, { typeByReference: true })], ["double", doubleDeflateBomb(1024)], ["pages", manyPages(5000)], ["objects", manyObjects(250000)]] as const) {
  s = performance.now();
  const r = await stampPdf(pdf, { name: "a", email: "b@c.d" });
  console.log(name, pdf.length, JSON.stringify({ ...r, bytes: undefined }), Math.round(performance.now() - s), "rss", process.memoryUsage().rss >> 20);
}
