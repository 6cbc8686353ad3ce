// Vitest global setup for the e2e run: one server for all specs, stopped at the end.

import type { TestProject } from 'vitest/node';
import { startServer } from './support/server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    dataDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startServer();
  console.log(`e2e: campus serve at ${server.baseURL} (data ${server.dataDir})`);
  project.provide('baseURL', server.baseURL);
  project.provide('dataDir', server.dataDir);
  return () => server.stop();
}
