import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pick from "stream-json/filters/pick.js";
import streamArray from "stream-json/streamers/stream-array.js";
import { ImportFileError, type ByteSource } from "./types";

/**
 * The elements of the array under `key` of a JSON document's top-level object, one at a time with their index, as
 * the document streams in: only the current element is ever held in memory, whatever the document's size.
 */
export async function* jsonArrayElements(input: ByteSource, key: string): AsyncIterable<{ index: number; value: unknown }> {
  const elements = streamArray.asStream();
  const done = pipeline(Readable.from(input), pick.withParserAsStream({ filter: key }), elements);
  // pipeline's own rejection is the error the iteration below throws; this keeps it from also going unhandled.
  done.catch(() => {});
  try {
    for await (const item of elements as AsyncIterable<{ key: number; value: unknown }>) {
      yield { index: item.key, value: item.value };
    }
  } catch (err) {
    throw new ImportFileError(`not valid JSON: ${(err as Error).message}`);
  }
  await done.catch((err: Error) => {
    throw new ImportFileError(`not valid JSON: ${err.message}`);
  });
}
