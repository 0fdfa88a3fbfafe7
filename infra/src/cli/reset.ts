// `make reset`: deletes make run's data (.data/run, or RUN_DATA_DIR) and FerretDB's PostgreSQL
// database of it; the next `make run` starts with empty data (and a new admin, keys, …).
import { displayPath, RUN_DATA_DIR } from '../paths';
import { resetDataDir } from '../reset';
import { errorMessage } from '../util';

resetDataDir(RUN_DATA_DIR, (line) => process.stdout.write(`reset  ${line}\n`))
  .then(() => {
    process.stdout.write(
      `reset  ${displayPath(RUN_DATA_DIR)} is gone; the next make run starts from scratch\n`,
    );
  })
  .catch((err: unknown) => {
    process.stderr.write(`make reset refused: ${errorMessage(err)}\n`);
    process.exit(1);
  });
