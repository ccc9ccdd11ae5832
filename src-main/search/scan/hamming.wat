;; The two hamming passes of BlockIndex.nearest (../block-store.ts) with 128-bit SIMD popcounts:
;; the same inputs, outputs and order as the JS passes there, several times fewer instructions;
;; and the rescoring of its candidates (dotPass): the same integer dot products as dotsJs in dots.ts.
;; Used for codes whose prefix is one 128-bit lane (4 words) and that are 2 to 32 lanes long (a
;; byte then holds a slot's per-lane popcount sum without overflow). Pointers are byte offsets
;; into the imported memory, laid out by arena.ts. Compiled to hamming-wasm.ts by
;; scripts/build-wasm.ts; a test checks the two agree.
(module
  (import "env" "memory" (memory 1))

  ;; Sum of the 16 bytes of v.
  (func $sum (param $v v128) (result i32)
    (local $s v128)
    (local.set $s (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $v))))
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $s)) (i32x4.extract_lane 1 (local.get $s)))
      (i32.add (i32x4.extract_lane 2 (local.get $s)) (i32x4.extract_lane 3 (local.get $s)))))

  ;; Pass one: the prefix distance of every slot passing the filter into d1 (u16; `none` for the
  ;; others), counted into hist (u32 per distance). Labels are 3 u16 a slot (category, status,
  ;; embedder); a cat or stat of 0 means any. Returns how many slots passed.
  (func (export "prefixPass")
    (param $n i32) (param $prefix i32) (param $rids i32) (param $labels i32) (param $days i32)
    (param $q i32) (param $emb i32) (param $cat i32) (param $stat i32) (param $since i32)
    (param $d1 i32) (param $hist i32) (param $none i32)
    (result i32)
    (local $i i32) (local $l i32) (local $d i32) (local $passing i32) (local $qv v128) (local $h i32)
    (local.set $qv (v128.load (local.get $q)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $l (i32.add (local.get $labels) (i32.mul (local.get $i) (i32.const 6))))
        (if
          (i32.or
            (i32.or
              (i32.eqz (i32.load (i32.add (local.get $rids) (i32.shl (local.get $i) (i32.const 2)))))
              (i32.ne (i32.load16_u offset=4 (local.get $l)) (local.get $emb)))
            (i32.or
              (i32.or
                (i32.and (i32.ne (local.get $cat) (i32.const 0))
                         (i32.ne (i32.load16_u (local.get $l)) (local.get $cat)))
                (i32.and (i32.ne (local.get $stat) (i32.const 0))
                         (i32.ne (i32.load16_u offset=2 (local.get $l)) (local.get $stat))))
              (i32.lt_s (i32.load (i32.add (local.get $days) (i32.shl (local.get $i) (i32.const 2))))
                        (local.get $since))))
          (then
            (i32.store16 (i32.add (local.get $d1) (i32.shl (local.get $i) (i32.const 1))) (local.get $none)))
          (else
            (local.set $d
              (call $sum
                (i8x16.popcnt
                  (v128.xor
                    (v128.load (i32.add (local.get $prefix) (i32.shl (local.get $i) (i32.const 4))))
                    (local.get $qv)))))
            (i32.store16 (i32.add (local.get $d1) (i32.shl (local.get $i) (i32.const 1))) (local.get $d))
            (local.set $h (i32.add (local.get $hist) (i32.shl (local.get $d) (i32.const 2))))
            (i32.store (local.get $h) (i32.add (i32.load (local.get $h)) (i32.const 1)))
            (local.set $passing (i32.add (local.get $passing) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $passing))

  ;; Pass two: each slot with d1 <= th1 gets its full distance (d1 plus lanes 1.. of its code)
  ;; into idx (i32 slot) and d2 (u16), counted into hist. Returns how many were written.
  (func (export "fullPass")
    (param $n i32) (param $codes i32) (param $lanes i32) (param $q i32) (param $d1 i32) (param $th1 i32)
    (param $idx i32) (param $d2 i32) (param $hist i32)
    (result i32)
    (local $i i32) (local $k i32) (local $d i32) (local $c i32) (local $row i32) (local $h i32)
    (local $stride i32) (local $acc v128)
    (local.set $stride (i32.shl (local.get $lanes) (i32.const 4)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $d (i32.load16_u (i32.add (local.get $d1) (i32.shl (local.get $i) (i32.const 1)))))
        (if (i32.le_u (local.get $d) (local.get $th1))
          (then
            (local.set $row (i32.add (local.get $codes) (i32.mul (local.get $i) (local.get $stride))))
            (local.set $acc (v128.const i32x4 0 0 0 0))
            (local.set $c (i32.const 16))
            (block $lanesDone
              (loop $lane
                (br_if $lanesDone (i32.ge_u (local.get $c) (local.get $stride)))
                (local.set $acc
                  (i8x16.add (local.get $acc)
                    (i8x16.popcnt
                      (v128.xor
                        (v128.load (i32.add (local.get $row) (local.get $c)))
                        (v128.load (i32.add (local.get $q) (local.get $c)))))))
                (local.set $c (i32.add (local.get $c) (i32.const 16)))
                (br $lane)))
            (local.set $d (i32.add (local.get $d) (call $sum (local.get $acc))))
            (i32.store (i32.add (local.get $idx) (i32.shl (local.get $k) (i32.const 2))) (local.get $i))
            (i32.store16 (i32.add (local.get $d2) (i32.shl (local.get $k) (i32.const 1))) (local.get $d))
            (local.set $h (i32.add (local.get $hist) (i32.shl (local.get $d) (i32.const 2))))
            (i32.store (local.get $h) (i32.add (i32.load (local.get $h)) (i32.const 1)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $k))
  ;; Rescoring: for each of n slots (i32 indices at $slots) the exact integer dot product of its
  ;; int8 vector (dims bytes from $vectors + slot * dims) with the int16 query at $q, into $out (i32).
  ;; dims is a multiple of 16; |sum| <= dims * 128 * 32767 stays inside i32 for dims <= 511.
  (func (export "dotPass")
    (param $n i32) (param $slots i32) (param $vectors i32) (param $dims i32) (param $q i32) (param $out i32)
    (local $k i32) (local $row i32) (local $c i32) (local $v v128) (local $acc v128)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $row
          (i32.add (local.get $vectors)
            (i32.mul (i32.load (i32.add (local.get $slots) (i32.shl (local.get $k) (i32.const 2)))) (local.get $dims))))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $c (i32.const 0))
        (block $rowDone
          (loop $chunk
            (br_if $rowDone (i32.ge_u (local.get $c) (local.get $dims)))
            (local.set $v (v128.load (i32.add (local.get $row) (local.get $c))))
            (local.set $acc
              (i32x4.add (local.get $acc)
                (i32x4.add
                  (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v))
                                     (v128.load (i32.add (local.get $q) (i32.shl (local.get $c) (i32.const 1)))))
                  (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v))
                                     (v128.load offset=16 (i32.add (local.get $q) (i32.shl (local.get $c) (i32.const 1))))))))
            (local.set $c (i32.add (local.get $c) (i32.const 16)))
            (br $chunk)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 2)))
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next))))
)
