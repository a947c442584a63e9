import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { defineTool } from './define-tool.ts';
import { type DocumentPart, documentPart, type ImagePart, imagePart, type ModelContentPart } from './model-content.ts';

describe('model content types', () => {
  it('documentPart makes a DocumentPart, one kind of ModelContentPart beside text and images', () => {
    expectTypeOf(documentPart(new Uint8Array(0), 'application/pdf', 'report.pdf')).toEqualTypeOf<DocumentPart>();
    expectTypeOf(documentPart('JVBERi0=', 'application/pdf')).toEqualTypeOf<DocumentPart>();
    expectTypeOf(documentPart(new ArrayBuffer(0), 'application/pdf')).toEqualTypeOf<DocumentPart>();
    expectTypeOf<DocumentPart['filename']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Extract<ModelContentPart, { type: 'document' }>>().toEqualTypeOf<DocumentPart>();
    expectTypeOf<Extract<ModelContentPart, { type: 'image' }>>().toEqualTypeOf<ImagePart>();
    // @ts-expect-error: the file name is a string
    documentPart('JVBERi0=', 'application/pdf', 42);
    // @ts-expect-error: the data is bytes or base64 text
    documentPart([1, 2], 'application/pdf');
  });

  it('toModelOutput returns documents as helper parts or plain objects, narrowed by type', () => {
    defineTool({
      name: 'invoice',
      description: '',
      input: v.object({}),
      execute: () => ({ pdf: new Uint8Array(0) }),
      toModelOutput: ({ pdf }) => [
        { type: 'text', text: 'The invoice:' },
        documentPart(pdf, 'application/pdf', 'invoice.pdf'),
        { type: 'document', data: 'JVBERi0=', mediaType: 'application/pdf' },
        { type: 'document', data: 'JVBERi0=', mediaType: 'application/pdf', filename: undefined },
        imagePart(pdf, 'image/png'),
      ],
    });
    // @ts-expect-error: a document part needs its media type
    defineTool({ name: 't', description: '', input: v.object({}), execute: () => 1, toModelOutput: () => [{ type: 'document', data: 'x' }] });
    // @ts-expect-error: the file name is a string
    defineTool({ name: 't', description: '', input: v.object({}), execute: () => 1, toModelOutput: () => [{ type: 'document', data: 'x', mediaType: 'application/pdf', filename: 1 }] });
    const named = (part: ModelContentPart): string | undefined => (part.type === 'document' ? part.filename : undefined);
    expectTypeOf(named).returns.toEqualTypeOf<string | undefined>();
  });
});
