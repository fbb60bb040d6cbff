//! go-yaml v2's order of mapping keys.

use std::cmp::Ordering;

/// Sort keys in go-yaml's order (`go_yaml_key_cmp`), stably. For some keys
/// with digit runs that order is not a total order; Go's sort accepts that,
/// while the standard library's may panic. This merge sort never does, and
/// gives one answer for one input (where the order is inconsistent, not
/// necessarily go-yaml's).
pub fn sort_go_yaml_keys<S: AsRef<str>>(mut keys: Vec<S>) -> Vec<S> {
    if keys.len() <= 1 {
        return keys;
    }
    let right = keys.split_off(keys.len() / 2);
    let (left, right) = (sort_go_yaml_keys(keys), sort_go_yaml_keys(right));
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut right = right.into_iter().peekable();
    for l in left {
        while let Some(r) =
            right.next_if(|r| go_yaml_key_cmp(r.as_ref(), l.as_ref()) == Ordering::Less)
        {
            out.push(r);
        }
        out.push(l);
    }
    out.extend(right);
    out
}

/// go-yaml v2's key order (`keyList.Less`) for string keys.
pub(super) fn go_yaml_key_cmp(a: &str, b: &str) -> Ordering {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    let mut i = 0;
    while i < ar.len() && i < br.len() {
        if ar[i] == br[i] {
            i += 1;
            continue;
        }
        let al = ar[i].is_alphabetic();
        let bl = br[i].is_alphabetic();
        if al && bl {
            return ar[i].cmp(&br[i]);
        }
        if al || bl {
            return if bl {
                Ordering::Less
            } else {
                Ordering::Greater
            };
        }
        let (mut an, mut bn) = (0i64, 0i64);
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i;
            while j > 0 && ar[j - 1].is_ascii_digit() {
                j -= 1;
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && ar[ai].is_ascii_digit() {
            an = an
                .wrapping_mul(10)
                .wrapping_add(i64::from(ar[ai] as u8 - b'0'));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && br[bi].is_ascii_digit() {
            bn = bn
                .wrapping_mul(10)
                .wrapping_add(i64::from(br[bi] as u8 - b'0'));
            bi += 1;
        }
        if an != bn {
            return an.cmp(&bn);
        }
        if ai != bi {
            return ai.cmp(&bi);
        }
        return ar[i].cmp(&br[i]);
    }
    ar.len().cmp(&br.len())
}
