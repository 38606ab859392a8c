import express from 'express4'
import { describeExpress } from './express-suite'

describeExpress(4, express)
