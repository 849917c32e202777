// An MCP server whose tools leave a trace of every call they start (a line in the file named by its first argument) and can
// be slow (slowMs), so that a test can cut a call mid-way and count what happened. One tool of each
// kind of MCP annotations: read-only, idempotent, neither, destructive.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { appendFileSync } from "node:fs";

const log = process.argv[2] ?? process.env.EFFECTS_LOG;
const server = new McpServer({ name: "effects", version: "1.0.0" });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function tool(name, annotations) {
  server.registerTool(
    name,
    {
      description: `${name}: leaves a line in the log, then waits slowMs`,
      inputSchema: { amount: z.number(), slowMs: z.number().optional() },
      annotations,
    },
    async ({ amount, slowMs }) => {
      appendFileSync(log, `${name} ${amount}\n`);
      await sleep(slowMs ?? 0);
      return { content: [{ type: "text", text: `${name} ${amount} done` }] };
    },
  );
}

tool("balance", { readOnlyHint: true });
tool("set-limit", { readOnlyHint: false, idempotentHint: true, destructiveHint: false });
tool("charge", { readOnlyHint: false, idempotentHint: false, destructiveHint: false });
tool("refund", { readOnlyHint: false, idempotentHint: false, destructiveHint: true });

await server.connect(new StdioServerTransport());
