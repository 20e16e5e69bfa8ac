//! The opaque `void *` a C caller holds: how a raw pointer becomes safe access to a solver,
//! and every way that can go wrong made a defined outcome.
//!
//! # What a handle is
//! `ipasir_init` / `ipamir_init` return `Box::into_raw` of a [`Handle`]: a `#[repr(C)]`
//! [`Header`] (a magic number naming the interface, a busy flag, a poisoned flag), the shared
//! [`Terminator`], and the interface's state behind an `UnsafeCell`.
//!
//! # The invariant every entry point relies on
//! **A non-null pointer passed to any function of this library was returned by `ipasir_init`
//! or `ipamir_init` and has not been released.** That is the C caller's side of the contract,
//! as for every C library; a dangling or forged pointer cannot be detected without reading
//! through it. Everything else is checked here:
//! - a null pointer: the call does nothing and returns its neutral value;
//! - a handle of the other interface (an IPAMIR handle given to `ipasir_add`): both handle
//!   types start with the same `#[repr(C)]` header, so reading the magic number is valid for
//!   either, and a mismatch is refused like a null pointer;
//! - a call while another call on the same handle is running (from inside a terminate or learn
//!   callback, or from another thread): the busy flag is taken with an atomic compare-exchange,
//!   so the second call is refused (counted in the header, reported by `grim_last_error`)
//!   instead of aliasing the first call's `&mut` state;
//! - a panic inside the engine (a bug, never a caller's input): caught at the boundary, the
//!   handle is poisoned (every later call is refused, `grim_last_error` says why) and no
//!   unwinding crosses into C.

use std::cell::UnsafeCell;
use std::ffi::c_void;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use grim_solver::Terminator;

/// The magic number of an IPASIR handle ("GRIMSAT" and a version byte).
pub(crate) const SAT_MAGIC: u64 = 0x4752_494D_5341_5401;
/// The magic number of an IPAMIR handle ("GRIMMAX" and a version byte).
pub(crate) const MAXSAT_MAGIC: u64 = 0x4752_494D_4D41_5801;

/// The part both handle types share, at offset 0 of each (`#[repr(C)]`).
#[repr(C)]
pub(crate) struct Header {
    /// [`SAT_MAGIC`] or [`MAXSAT_MAGIC`]; zeroed on release (a best-effort guard only: reading
    /// a released handle is the caller's undefined behaviour, see the module documentation).
    magic: AtomicU64,
    /// Set while a call holds the state.
    busy: AtomicBool,
    /// Set when an engine panic was caught: the state may be half-updated.
    poisoned: AtomicBool,
    /// Calls refused because the handle was busy.
    refused: AtomicU64,
}

/// One solver as C sees it. `T` is [`crate::sat::Sat`] or [`crate::maxsat::MaxSat`].
#[repr(C)]
pub(crate) struct Handle<T> {
    header: Header,
    /// The engine's terminate flag, readable without taking the state, so that
    /// `grim_terminate` works from another thread or a signal handler while a solve runs.
    pub(crate) stop: Terminator,
    state: UnsafeCell<T>,
}

/// A state type, its magic number, and where it keeps its most recent misuse.
pub(crate) trait Kind {
    const MAGIC: u64;
    /// The most recent misuse, for `grim_last_error` (NUL-free by construction).
    fn last_error(&mut self) -> &mut Option<std::ffi::CString>;
    /// Records a message for `grim_last_error`.
    fn record(&mut self, message: String) {
        *self.last_error() = std::ffi::CString::new(message).ok();
    }
    /// The recorded message (NUL-terminated), or null.
    fn error(&mut self) -> *const std::ffi::c_char {
        self.last_error()
            .as_ref()
            .map_or(std::ptr::null(), |e| e.as_ptr())
    }
    /// Forgets the recorded message.
    fn clear(&mut self) {
        *self.last_error() = None;
    }
}

/// `impl Kind` for a state struct `$state` with magic number `$magic` and its last misuse in
/// a field `error: Option<CString>`: what both kinds (IPASIR's `Sat`, IPAMIR's `MaxSat`)
/// write, so that a third kind cannot get the accessor subtly different.
macro_rules! impl_kind {
    ($state:ty, $magic:expr) => {
        impl $crate::handle::Kind for $state {
            const MAGIC: u64 = $magic;
            fn last_error(&mut self) -> &mut Option<std::ffi::CString> {
                &mut self.error
            }
        }
    };
}
pub(crate) use impl_kind;

/// Creates a handle and gives up ownership to the C caller.
pub(crate) fn into_raw<T: Kind>(state: T, stop: Terminator) -> *mut c_void {
    let handle = Box::new(Handle {
        header: Header {
            magic: AtomicU64::new(T::MAGIC),
            busy: AtomicBool::new(false),
            poisoned: AtomicBool::new(false),
            refused: AtomicU64::new(0),
        },
        stop,
        state: UnsafeCell::new(state),
    });
    Box::into_raw(handle).cast()
}

/// The header of `ptr`, when it is non-null and of kind `magic`.
///
/// # Safety
/// `ptr` is null or satisfies the module's invariant.
unsafe fn header<'a>(ptr: *mut c_void, magic: u64) -> Option<&'a Header> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: by the module invariant `ptr` points to a live `Handle<_>` of one of the two
    // kinds; both begin with `Header` (`#[repr(C)]`), whose fields are atomics, so a shared
    // reference to it is valid even while another call holds the state.
    let header = unsafe { &*ptr.cast::<Header>() };
    (header.magic.load(Ordering::Acquire) == magic).then_some(header)
}

/// Whether `ptr` is a live handle of kind `T` (for functions that accept either kind).
///
/// # Safety
/// `ptr` is null or satisfies the module's invariant.
pub(crate) unsafe fn is<T: Kind>(ptr: *mut c_void) -> bool {
    // SAFETY: forwarded contract.
    unsafe { header(ptr, T::MAGIC) }.is_some()
}

/// The terminate flag of a handle of kind `T`, without taking its state.
///
/// # Safety
/// `ptr` is null or satisfies the module's invariant.
pub(crate) unsafe fn stop<'a, T: Kind>(ptr: *mut c_void) -> Option<&'a Terminator> {
    // SAFETY: forwarded contract; on a magic match `ptr` is a `Handle<T>`, whose `stop` field
    // is only written by `into_raw`, so sharing it is sound.
    unsafe { header(ptr, T::MAGIC) }?;
    Some(unsafe { &(*ptr.cast::<Handle<T>>()).stop })
}

/// Runs `f` with exclusive access to the state of the handle `ptr`, or returns `fallback`
/// when the handle is null, of the other kind, busy or poisoned (see the module
/// documentation). Panics inside `f` are caught and poison the handle.
///
/// # Safety
/// `ptr` is null or satisfies the module's invariant.
pub(crate) unsafe fn with<T: Kind, R>(
    ptr: *mut c_void,
    fallback: R,
    f: impl FnOnce(&mut T, &Terminator) -> R,
) -> R {
    // SAFETY: forwarded contract.
    let Some(header) = (unsafe { header(ptr, T::MAGIC) }) else {
        return fallback;
    };
    if header.poisoned.load(Ordering::Acquire) {
        return fallback;
    }
    if header
        .busy
        .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        header.refused.fetch_add(1, Ordering::Relaxed);
        return fallback;
    }
    // SAFETY: the magic number matched, so `ptr` is a live `Handle<T>`; this call holds the
    // busy flag, so no other reference to the state exists until it is released below (every
    // path to the state goes through this function).
    let handle = unsafe { &*ptr.cast::<Handle<T>>() };
    let state = unsafe { &mut *handle.state.get() };
    let result = catch_unwind(AssertUnwindSafe(|| f(state, &handle.stop)));
    let out = match result {
        Ok(r) => r,
        Err(_) => {
            header.poisoned.store(true, Ordering::Release);
            fallback
        }
    };
    header.busy.store(false, Ordering::Release);
    out
}

/// Why calls on a handle were refused without reaching its state.
pub(crate) enum Refusal {
    /// Nothing was refused.
    None,
    /// An engine panic poisoned the handle.
    Poisoned,
    /// This many calls came while another call was running.
    Busy(u64),
}

/// The message of a poisoned handle, static so that `grim_last_error` can return it without
/// touching the state.
pub(crate) const POISONED: &std::ffi::CStr = c"internal error: the engine panicked during a \
call; this handle refuses every call but release. Please report it with the calls that led \
there.";

/// Why calls on `ptr` were refused (for `grim_last_error`).
///
/// # Safety
/// `ptr` is null or satisfies the module's invariant.
pub(crate) unsafe fn refusal<T: Kind>(ptr: *mut c_void) -> Refusal {
    // SAFETY: forwarded contract.
    let Some(header) = (unsafe { header(ptr, T::MAGIC) }) else {
        return Refusal::None;
    };
    if header.poisoned.load(Ordering::Acquire) {
        return Refusal::Poisoned;
    }
    match header.refused.swap(0, Ordering::Relaxed) {
        0 => Refusal::None,
        n => Refusal::Busy(n),
    }
}

/// The message for `n` busy refusals.
pub(crate) fn busy_message(n: u64) -> String {
    format!(
        "{n} call{} refused because another call on this handle was running (a call from \
         inside a terminate or learn callback, or from a second thread)",
        if n == 1 { " was" } else { "s were" }
    )
}

/// The most recent misuse of a handle of kind `T`: the text `grim_last_error` returns.
///
/// # Safety
/// `ptr` is null or satisfies the module's invariant.
pub(crate) unsafe fn last_error<T: Kind>(ptr: *mut c_void) -> *const std::ffi::c_char {
    // SAFETY: forwarded contract.
    unsafe {
        match refusal::<T>(ptr) {
            Refusal::Poisoned => return POISONED.as_ptr(),
            Refusal::Busy(n) => with::<T, _>(ptr, (), |s, _| s.record(busy_message(n))),
            Refusal::None => {}
        }
        // The pointer points into the state's message, which only a later call on this handle
        // replaces: the documented lifetime.
        with::<T, _>(ptr, std::ptr::null(), |s, _| s.error())
    }
}

/// Forgets the recorded misuse of a handle of kind `T` (busy refusals included).
///
/// # Safety
/// `ptr` is null or satisfies the module's invariant.
pub(crate) unsafe fn clear_error<T: Kind>(ptr: *mut c_void) {
    // SAFETY: forwarded contract.
    unsafe {
        if let Some(header) = header(ptr, T::MAGIC) {
            header.refused.store(0, Ordering::Relaxed);
        }
        with::<T, _>(ptr, (), |s, _| s.clear());
    }
}

/// Frees the handle `ptr` (null, the other kind or busy: nothing happens).
///
/// # Safety
/// `ptr` is null or satisfies the module's invariant; after this call it no longer does.
pub(crate) unsafe fn release<T: Kind>(ptr: *mut c_void) {
    // SAFETY: forwarded contract.
    let Some(header) = (unsafe { header(ptr, T::MAGIC) }) else {
        return;
    };
    // Releasing from inside a callback of a running solve would free the state under it.
    if header
        .busy
        .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        header.refused.fetch_add(1, Ordering::Relaxed);
        return;
    }
    header.magic.store(0, Ordering::Release);
    // SAFETY: `ptr` came from `Box::into_raw` of a `Handle<T>` (magic matched) and this call
    // holds the busy flag, so no other reference to it is live; the caller promises not to use
    // it again.
    drop(unsafe { Box::from_raw(ptr.cast::<Handle<T>>()) });
}
