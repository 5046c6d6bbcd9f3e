import { checkResponsesOfFetch } from './api-responses.js';

// Loaded before every suite (jest.config.mjs, setupFilesAfterEnv): a test fails when an answer it got
// from the service differs from the OpenAPI document.
const responses = checkResponsesOfFetch();

afterEach(async () => {
  const problems = await responses.settle();
  if (problems.length > 0) throw new Error(`Answers that differ from docs/openapi.json:\n${problems.join('\n')}`);
});

afterAll(async () => {
  const problems = await responses.settle();
  if (problems.length > 0) throw new Error(`Answers that differ from docs/openapi.json:\n${problems.join('\n')}`);
});
