//! The C ABI (see the comment at the top of lib.rs). Every function catches
//! panics: none unwinds into C.
#![allow(unsafe_code)]

use std::ffi::CStr;
use std::os::raw::c_char;
use std::panic::{self, AssertUnwindSafe};
use std::ptr;

use crate::composites::COMPOSITE_LIST;
use crate::run::{self, RunError};

/// Success.
pub const OK: i32 = 0;
/// No composite of that name.
pub const UNKNOWN_COMPOSITE: i32 = 1;
/// Invalid script bytes, a child count outside the composite's range, or a
/// null pointer.
pub const INVALID_SCRIPT: i32 = 2;
/// A panic outside the composite's poll: a bug of the crate.
pub const INTERNAL_PANIC: i32 = 3;

/// Plays `script` (`script_len` bytes) through the composite named
/// `composite` (NUL-terminated). On success returns 0 and sets `*out` /
/// `*out_len` to a buffer holding the observation bytes, to be freed with
/// `fairwire_rust_poll_free`; on failure sets them to null / 0 (when they
/// are not null) and returns 1 (no composite of that name), 2 (invalid
/// script, child count out of range, or a null pointer) or 3 (a panic
/// outside the composite's poll).
///
/// # Safety
/// `composite` must be null or point to a NUL-terminated string; `script`
/// must be null or point to `script_len` readable bytes; `out` and
/// `out_len` must be null or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn fairwire_rust_poll_run(
    composite: *const c_char,
    script: *const u8,
    script_len: usize,
    out: *mut *mut u8,
    out_len: *mut usize,
) -> i32 {
    let body = AssertUnwindSafe(|| {
        if out.is_null() || out_len.is_null() {
            return INVALID_SCRIPT;
        }
        // SAFETY: both are non-null and valid for writes (caller's
        // contract).
        unsafe {
            *out = ptr::null_mut();
            *out_len = 0;
        }
        if composite.is_null() || script.is_null() {
            return INVALID_SCRIPT;
        }
        // SAFETY: non-null and NUL-terminated (caller's contract).
        let name = unsafe { CStr::from_ptr(composite) };
        let name = match name.to_str() {
            Ok(name) => name,
            Err(_) => return UNKNOWN_COMPOSITE,
        };
        // SAFETY: non-null and `script_len` readable bytes (caller's
        // contract).
        let bytes = unsafe { std::slice::from_raw_parts(script, script_len) };
        match run::play(name, bytes) {
            Ok(observation) => {
                let len = observation.len();
                let buffer = Box::into_raw(observation.into_boxed_slice()) as *mut u8;
                // SAFETY: checked non-null above; valid for writes.
                unsafe {
                    *out = buffer;
                    *out_len = len;
                }
                OK
            }
            Err(RunError::UnknownComposite) => UNKNOWN_COMPOSITE,
            Err(RunError::InvalidScript(_)) | Err(RunError::ChildCount { .. }) => INVALID_SCRIPT,
        }
    });
    panic::catch_unwind(body).unwrap_or(INTERNAL_PANIC)
}

/// Frees a buffer `fairwire_rust_poll_run` returned; null is ignored.
///
/// # Safety
/// `out` must be null or a buffer from `fairwire_rust_poll_run` with its
/// `out_len`, not freed before.
#[no_mangle]
pub unsafe extern "C" fn fairwire_rust_poll_free(out: *mut u8, out_len: usize) {
    let body = AssertUnwindSafe(|| {
        if out.is_null() {
            return;
        }
        // SAFETY: `out` / `out_len` came from Box::into_raw of a boxed slice
        // of that length (caller's contract).
        drop(unsafe { Box::from_raw(ptr::slice_from_raw_parts_mut(out, out_len)) });
    });
    let _ = panic::catch_unwind(body);
}

/// The static NUL-terminated list of composites, one line each:
/// "name\tmin_children\tmax_children\tchild_kind(stream|future)\tprobe(yes|no)\n".
#[no_mangle]
pub extern "C" fn fairwire_rust_poll_composites() -> *const c_char {
    panic::catch_unwind(|| COMPOSITE_LIST.as_ptr() as *const c_char).unwrap_or(ptr::null())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observation::decode;

    fn call(name: &[u8], script: Option<&[u8]>) -> (i32, Option<Vec<u8>>) {
        let mut out: *mut u8 = ptr::null_mut();
        let mut out_len = 0usize;
        let (ptr, len) = match script {
            Some(s) => (s.as_ptr(), s.len()),
            None => (ptr::null(), 0),
        };
        let code = unsafe {
            fairwire_rust_poll_run(
                name.as_ptr() as *const c_char,
                ptr,
                len,
                &mut out,
                &mut out_len,
            )
        };
        if code != OK {
            assert!(out.is_null());
            assert_eq!(out_len, 0);
            return (code, None);
        }
        let bytes = unsafe { std::slice::from_raw_parts(out, out_len) }.to_vec();
        unsafe { fairwire_rust_poll_free(out, out_len) };
        (code, Some(bytes))
    }

    // 1 call, 2 children each [R1], no wakes, no draws.
    const SCRIPT: &[u8] = &[0, 0, 1, 0x01, 1 | (1 << 3), 0x01, 1 | (1 << 3), 0, 0];

    #[test]
    fn runs_and_frees() {
        let (code, bytes) = call(b"futures::stream::select\0", Some(SCRIPT));
        assert_eq!(code, OK);
        let o = decode::observation(&bytes.unwrap()).unwrap();
        assert_eq!(o.composite, "futures::stream::select");
        assert_eq!(o.children, 2);
    }

    #[test]
    fn error_codes() {
        assert_eq!(call(b"no such\0", Some(SCRIPT)).0, UNKNOWN_COMPOSITE);
        assert_eq!(call(b"\xff\0", Some(SCRIPT)).0, UNKNOWN_COMPOSITE);
        assert_eq!(call(b"futures::stream::select\0", None).0, INVALID_SCRIPT);
        assert_eq!(
            call(
                b"futures::stream::select\0",
                Some(&SCRIPT[..SCRIPT.len() - 1])
            )
            .0,
            INVALID_SCRIPT
        );
        // select takes exactly 2 children; one child is out of range.
        let one_child: &[u8] = &[0, 0, 0, 0, 0, 0];
        assert_eq!(
            call(b"futures::stream::select\0", Some(one_child)).0,
            INVALID_SCRIPT
        );
        assert_eq!(
            call(b"futures::stream::select_all\0", Some(one_child)).0,
            OK
        );
        let null_name = unsafe {
            let mut out = ptr::null_mut();
            let mut len = 0;
            fairwire_rust_poll_run(
                ptr::null(),
                SCRIPT.as_ptr(),
                SCRIPT.len(),
                &mut out,
                &mut len,
            )
        };
        assert_eq!(null_name, INVALID_SCRIPT);
        let null_out = unsafe {
            fairwire_rust_poll_run(
                b"futures::stream::select\0".as_ptr() as *const c_char,
                SCRIPT.as_ptr(),
                SCRIPT.len(),
                ptr::null_mut(),
                ptr::null_mut(),
            )
        };
        assert_eq!(null_out, INVALID_SCRIPT);
        unsafe { fairwire_rust_poll_free(ptr::null_mut(), 0) };
    }

    #[test]
    fn the_list_is_nul_terminated() {
        let list = unsafe { CStr::from_ptr(fairwire_rust_poll_composites()) };
        let list = list.to_str().unwrap();
        assert_eq!(list.lines().count(), crate::composites::COMPOSITES.len());
        assert!(list.starts_with("futures::stream::select\t2\t2\tstream\tyes\n"));
    }
}
