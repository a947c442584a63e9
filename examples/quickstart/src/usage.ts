import { createExecutor, defineTool } from '@edgetool/core';
import * as v from 'valibot';

// Stands in for an embeddings API: vectors, and the tokens it billed for them.
async function embed(text: string) {
  const tokens = text.split(/\s+/).length;
  return { vector: [0.12, -0.4, 0.33], usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

const searchNotes = defineTool({
  name: 'search_notes',
  description: 'Find the notes closest to a question',
  input: v.object({ question: v.string() }),
  execute: async ({ question }, ctx) => {
    const { vector, usage } = await embed(question);
    // Spent whatever happens next: the call's result carries it, and the chat loop adds it to the turn's usage and budget.
    ctx.reportUsage({ inputTokens: usage.prompt_tokens, totalTokens: usage.total_tokens });
    if (!question.includes('supplier')) throw new Error(`No note is close to a vector of ${vector.length} numbers.`);
    return ['Call the supplier on Monday'];
  },
});

const executor = createExecutor({ registry: [searchNotes] });
const found = await executor.execute({ id: 'call_1', name: 'search_notes', arguments: { question: 'when do we call the supplier?' } });
const missed = await executor.execute({ id: 'call_2', name: 'search_notes', arguments: { question: 'holiday plans' } });
console.log(found.content, JSON.stringify(found.usage));
console.log(missed.content, JSON.stringify(missed.usage)); // a failed call still says what it spent
