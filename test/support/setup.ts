import { verifyKeyedReads } from '../../src/db/hot-read';

/** Runs in every test file before its tests: checks the suite wants everywhere. */

// A list page's kept statement must be the one its key's builder makes (src/db/hot-read.ts).
verifyKeyedReads(true);
