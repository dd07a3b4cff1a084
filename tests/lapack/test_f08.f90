! SPDX-License-Identifier: BSD-3-Clause
! libtila_lapack preloaded under a Fortran program that starts MPI itself through `use
! mpi_f08` at MPI_THREAD_FUNNELED: MPI gives at least FUNNELED, and DPOTRF (order 300,
! TILA_LAPACK_MIN_N=0) factors A with a residual ||L L^T - A||_max / (n eps ||A||_max) under
! 30.  Whether Tila took the call is the exit summary's (TILA_VERBOSE=1), checked by
! tests/lapack/run-testers.sh.  One line: PASS|FAIL lapack-f08 ...
program test_f08
  use mpi_f08
  implicit none
  integer, parameter :: n = 300
  integer :: provided, info, i, j
  double precision :: a(n, n), l(n, n), r, big
  call MPI_Init_thread(MPI_THREAD_FUNNELED, provided)
  do j = 1, n
    do i = 1, n
      a(i, j) = 0.5d0 * sin(0.37d0 * (i + j) + 0.11d0 * abs(i - j))
    end do
    a(j, j) = 2d0 * n
  end do
  l = a
  call dpotrf('L', n, l, n, info)
  do j = 1, n
    l(1:j - 1, j) = 0d0
  end do
  r = maxval(abs(matmul(l, transpose(l)) - a))
  big = maxval(abs(a))
  r = r / (n * epsilon(1d0) * big)
  if (provided >= MPI_THREAD_FUNNELED .and. info == 0 .and. r < 30d0) then
    write (*, '(a, i0, a, es9.2)') 'PASS lapack-f08 use mpi_f08, FUNNELED: provided ', &
      provided, ', dpotrf n=300 residual / (n eps) ', r
  else
    write (*, '(a, i0, a, i0, a, es9.2)') 'FAIL lapack-f08 use mpi_f08, FUNNELED: provided ', &
      provided, ' info ', info, ' residual / (n eps) ', r
  end if
  call MPI_Finalize()
end program test_f08
