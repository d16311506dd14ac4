import { Allow } from 'class-validator';

/**
 * Keys that Plane's objects carry but a client cannot set (ids, timestamps, counts). Clients
 * often send back an object they read (the MCP server's schemas let an agent pass any field), and
 * Plane ignores read-only keys, so the write DTOs accept and drop them instead of answering 422.
 */
export class ReadOnlyBase {
  @Allow() id?: unknown;
  @Allow() workspace?: unknown;
  @Allow() project?: unknown;
  @Allow() created_at?: unknown;
  @Allow() updated_at?: unknown;
  @Allow() deleted_at?: unknown;
  @Allow() created_by?: unknown;
  @Allow() updated_by?: unknown;
}
