//! meshspec's spec model: a `.ksy` file read ([`load`]), checked and resolved into [`Spec`],
//! with its expressions parsed ([`expr`]) and the questions every user of a spec asks
//! answered (sizes, reachability, list layouts). The generator (`meshspec-codegen`), the
//! interpreter (`meshspec-formats`) and the Python package read specs through it alone.

pub mod expr;

mod analysis;
mod layout;
mod lint;
mod load;
mod resolve;
pub mod syntax;
mod types;

pub use analysis::*;
pub use layout::*;
pub use lint::lint;
pub use load::{load, load_with, Resolver, SpecError};
pub use resolve::require_facts;
pub use types::*;
