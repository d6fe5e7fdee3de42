import { runAdmin } from './run-admin.js';

// `npm run admin`: the process's arguments, environment and streams handed to runAdmin.
runAdmin(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  },
);
