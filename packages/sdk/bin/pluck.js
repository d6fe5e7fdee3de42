#!/usr/bin/env node
// The `pluck` command. It lives outside dist/ so that npm links it before the first build.
try {
  await import('../dist/cli/run.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist')) throw error;
  console.error('pluck is not built yet: run `npm run build` in the Pluck repository first.');
  process.exit(1);
}
