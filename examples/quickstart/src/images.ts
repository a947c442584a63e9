import { createExecutor, defineTool, imagePart } from '@edgetool/core';
import * as v from 'valibot';

// A 1×1 PNG stands in for the bytes your chart renderer or screenshot service returns.
const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='), (c) => c.charCodeAt(0));

const salesChart = defineTool({
  name: 'sales_chart',
  description: 'Draw the sales of a month as a bar chart',
  input: v.object({ month: v.string() }),
  // The output stays JSON (a UI can show the image: `data:${image.mediaType};base64,${image.data}`).
  execute: ({ month }) => ({ month, total: 1234, image: imagePart(png, 'image/png') }),
  // The model sees the image itself, not its base64 text.
  toModelOutput: ({ month, total, image }) => [{ type: 'text', text: `Sales in ${month}: ${total} EUR` }, image],
});

const result = await createExecutor({ registry: [salesChart] }).execute({ id: 'c1', name: 'sales_chart', arguments: '{"month":"May"}' });
console.log(result.parts?.map((part) => part.type).join(', ')); // text, image
console.log(result.content); // what a model that takes no images reads: the text, and a line naming the image
