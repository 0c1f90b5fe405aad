/**
 * The Node transport as the default of a test process (the mocha configs require this file): the
 * extension's entry and the command line set it at start; tests that make a client directly need it too.
 */
import { setDefaultTransport } from '../../src/core/client';
import { createNodeTransport } from '../../src/core/client/nodeTransport';

setDefaultTransport(createNodeTransport());
