/** The process entry of `pluck`: bin/pluck.js loads the built copy; tests run this file with tsx. */
import { runPluck } from './main.js';

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // `pluck markdown URL | head`: the reader left, which is not a failure.
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
process.exitCode = await runPluck(process.argv.slice(2), process.env);
