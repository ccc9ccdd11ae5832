/**
 * A minimal ONNX writer for tests: encodes a ModelProto by hand (protobuf varints and
 * length-delimited fields), so the tests can build a real model file that onnxruntime loads
 * without downloading any weights. Field numbers follow onnx/onnx.proto.
 */

const WIRE_VARINT = 0;
const WIRE_BYTES = 2;

/** Appends protobuf fields to a growing byte list. */
class ProtoWriter {
  private parts: Uint8Array[] = [];

  private varint(value: number | bigint): void {
    let v = BigInt(value);
    // Negative int64 values are written as their 64-bit two's complement (ten bytes).
    if (v < 0n) v += 1n << 64n;
    const bytes: number[] = [];
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) byte |= 0x80;
      bytes.push(byte);
    } while (v > 0n);
    this.parts.push(Uint8Array.from(bytes));
  }

  private key(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  int(field: number, value: number | bigint): this {
    this.key(field, WIRE_VARINT);
    this.varint(value);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.key(field, WIRE_BYTES);
    this.varint(value.length);
    this.parts.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, build: (w: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    const total = this.parts.reduce((n, p) => n + p.length, 0);
    const out = new Uint8Array(total);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

/** onnx.TensorProto.DataType */
export const ONNX_FLOAT = 1;
export const ONNX_INT64 = 7;

type Dim = number | string;

function valueInfo(w: ProtoWriter, name: string, elemType: number, dims: Dim[]): void {
  w.string(1, name); // ValueInfoProto.name
  w.message(2, (type) =>
    // TypeProto.tensor_type
    type.message(1, (tensor) => {
      tensor.int(1, elemType);
      tensor.message(2, (shape) => {
        for (const d of dims) shape.message(1, (dim) => (typeof d === 'number' ? dim.int(1, d) : dim.string(2, d)));
      });
    }),
  );
}

/**
 * A sentence-embedding-shaped model: `input_ids` [batch, seq] (int64) and `attention_mask` look up
 * rows of `embeddings` (vocab × dims) with Gather, giving `last_hidden_state` [batch, seq, dims] —
 * the output transformers.js mean-pools. The mask is a declared input (as in BERT exports) that the
 * pooling, not the graph, applies.
 */
export function tinyEmbeddingModel(embeddings: Float32Array[], opset = 14): Uint8Array {
  const vocab = embeddings.length;
  const dims = embeddings[0].length;
  const raw = new Float32Array(vocab * dims);
  for (let i = 0; i < vocab; i++) raw.set(embeddings[i], i * dims);
  const model = new ProtoWriter();
  model.int(1, 8); // ir_version
  model.string(2, 'forge-tests'); // producer_name
  model.message(7, (graph) => {
    graph.message(1, (node) => {
      node.string(1, 'embeddings').string(1, 'input_ids').string(2, 'last_hidden_state');
      node.string(3, 'lookup').string(4, 'Gather');
      node.message(5, (attr) => attr.string(1, 'axis').int(3, 0).int(20, 2)); // AttributeProto: name, i, type=INT
    });
    graph.string(2, 'tiny-embedder');
    graph.message(5, (t) => {
      t.int(1, vocab).int(1, dims).int(2, ONNX_FLOAT).string(8, 'embeddings');
      t.bytes(9, new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength)); // raw_data, little-endian
    });
    graph.message(11, (v) => valueInfo(v, 'input_ids', ONNX_INT64, ['batch', 'sequence']));
    graph.message(11, (v) => valueInfo(v, 'attention_mask', ONNX_INT64, ['batch', 'sequence']));
    graph.message(12, (v) => valueInfo(v, 'last_hidden_state', ONNX_FLOAT, ['batch', 'sequence', dims]));
  });
  model.message(8, (op) => op.string(1, '').int(2, opset)); // opset_import
  return model.finish();
}
