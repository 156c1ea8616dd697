/**
 * The server's entry. The built server runs React's production build however it is started
 * (`npm start`, `node build/server/index.js`, the image, the benches): React picks its build from
 * NODE_ENV when it is first loaded, so the default is set here, before anything imports React.
 * The development server (`npm run dev`) sets NODE_ENV itself.
 */
process.env.NODE_ENV ||= "production";

const { default: server } = await import("./main/serve.ts");
export default server;
