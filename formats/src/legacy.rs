//! A bridge for families not yet ported to [`Semantics`] on views and positions: their checks
//! and decoders on the owned value, run through the one verdict. It exists only while the
//! ports are under way; a ported family implements [`Semantics`] directly.

use crate::context::Context;
use crate::rt::{Error, Result, Root};
use crate::scene::Scene;

/// What a layout means, on the owned value (the families' former interface).
pub trait OwnedSemantics: Root {
    /// Relations between fields that do not hold, each with its path and rule.
    fn relations(&self, _ctx: &Context) -> Vec<Error> {
        Vec::new()
    }

    /// Relations that may be stale: reported, each with its rule.
    fn warnings(&self, _ctx: &Context) -> Vec<Error> {
        Vec::new()
    }

    /// Notes for the reader.
    fn notes(&self, _ctx: &Context) -> Vec<String> {
        Vec::new()
    }

    /// The geometry, in the common model.
    fn scene(&self, _ctx: &Context) -> Result<Scene> {
        Err(crate::rt::Error::unplaced(
            crate::rt::ErrorKind::Unsupported,
            "a layout with geometry",
            format!("`{}`, which holds none by itself", Self::ID),
        ))
    }
}

/// `Semantics` for types that implement [`OwnedSemantics`].
macro_rules! owned_semantics {
    ($($t:ty),* $(,)?) => {$(
        impl $crate::layouts::Semantics for $t {
            fn judge(
                view: &<$t as $crate::rt::Codec>::Ref<'_>,
                _at: &$crate::rt::Place<'_, <$t as $crate::rt::Codec>::Pos>,
                j: &mut $crate::verdict::Judge<'_>,
            ) {
                let v = <$t as $crate::rt::Codec>::own(view);
                let found = $crate::legacy::OwnedSemantics::relations(&v, j.ctx);
                j.extend(found);
                let found = $crate::legacy::OwnedSemantics::warnings(&v, j.ctx);
                j.extend(found.into_iter().map(|e| e.with_severity($crate::rt::Severity::Warning)));
            }
            fn notes(view: &<$t as $crate::rt::Codec>::Ref<'_>, ctx: &$crate::context::Context) -> Vec<String> {
                $crate::legacy::OwnedSemantics::notes(&<$t as $crate::rt::Codec>::own(view), ctx)
            }
            fn scene(
                view: &<$t as $crate::rt::Codec>::Ref<'_>,
                _at: &$crate::rt::Place<'_, <$t as $crate::rt::Codec>::Pos>,
                ctx: &$crate::context::Context,
            ) -> $crate::rt::Result<$crate::scene::Scene> {
                $crate::legacy::OwnedSemantics::scene(&<$t as $crate::rt::Codec>::own(view), ctx)
            }
        }
    )*};
}
pub(crate) use owned_semantics;
